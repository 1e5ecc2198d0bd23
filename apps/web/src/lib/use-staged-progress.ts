import { useCallback, useEffect, useRef, useState } from 'react';

/** How long each stage stays on screen at least, so a burst of stages is still seen. */
const MIN_STAGE_MS = 300;

export interface StagedProgress {
  /** The percentage on screen: reported values in turn, never one the server did not send. */
  readonly percent: number;
  /** True once the last reported value is on screen (earlier stages each had their minimum time). */
  readonly settled: boolean;
  /** Queues a percentage reported by the server. */
  report: (percent: number) => void;
  /** Clears the queue and shows `percent` at once (a new run). */
  reset: (percent?: number) => void;
}

/**
 * Plays back streamed progress (NDJSON events from real work on the server) stage by stage.
 * A stage is what the user reads (`stageOf`, e.g. 'Analysing policies...'): each stays on screen
 * at least `minStageMs`, so stages that arrive together (fast work, a cached result) are each
 * seen; values within one stage move the bar at once. It never moves the bar on its own.
 */
export function useStagedProgress(
  stageOf: (percent: number) => unknown = (percent) => percent,
  minStageMs = MIN_STAGE_MS,
): StagedProgress {
  const [state, setState] = useState({ percent: 0, settled: true });
  const queue = useRef<number[]>([]);
  const lastReported = useRef(0);
  const shown = useRef({ percent: 0, at: 0 });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stage = useRef(stageOf);
  stage.current = stageOf;

  const advance = useCallback(() => {
    timer.current = undefined;
    const first = queue.current[0];
    if (first === undefined) return;
    const changesStage = stage.current(first) !== stage.current(shown.current.percent);
    const wait = changesStage ? shown.current.at + minStageMs - Date.now() : 0;
    if (wait > 0) {
      timer.current = setTimeout(advance, wait);
      return;
    }
    // Everything queued in the same stage as `first` is shown at once, as its last value.
    let next = queue.current.shift() ?? first;
    while (
      queue.current[0] !== undefined &&
      stage.current(queue.current[0]) === stage.current(next)
    ) {
      next = queue.current.shift() ?? next;
    }
    shown.current = { percent: next, at: changesStage ? Date.now() : shown.current.at };
    setState({ percent: next, settled: queue.current.length === 0 });
    if (queue.current.length > 0) timer.current = setTimeout(advance, minStageMs);
  }, [minStageMs]);

  const report = useCallback(
    (percent: number) => {
      if (lastReported.current === percent) return;
      lastReported.current = percent;
      queue.current.push(percent);
      setState((s) => (s.settled ? { ...s, settled: false } : s));
      if (timer.current === undefined) advance();
    },
    [advance],
  );

  const reset = useCallback((percent = 0) => {
    clearTimeout(timer.current);
    timer.current = undefined;
    queue.current = [];
    lastReported.current = percent;
    shown.current = { percent, at: Date.now() };
    setState({ percent, settled: true });
  }, []);

  useEffect(() => () => clearTimeout(timer.current), []);

  return { percent: state.percent, settled: state.settled, report, reset };
}
