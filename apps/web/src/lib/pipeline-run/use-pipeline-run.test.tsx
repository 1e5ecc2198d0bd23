import type { PipelineRun } from '@aegis/contracts';
import { OFFBOARD_RUN_POLLING, ONBOARDING_RUN_POLLING } from '@aegis/domain';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { usePipelineRun } from './use-pipeline-run';

const started: PipelineRun = { id: 7, state: 'notStarted', result: null };

function reader(states: PipelineRun[]) {
  const read = vi.fn((_signal: AbortSignal) => {
    const next = states.shift();
    return next ? Promise.resolve(next) : Promise.reject(new Error('HTTP 503'));
  });
  return read;
}

describe('usePipelineRun', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reads after 3 s, then every 5 s while inProgress, and stops when it is not', async () => {
    const read = reader([
      { id: 7, state: 'inProgress', result: null },
      { id: 7, state: 'inProgress', result: null },
      { id: 7, state: 'completed', result: 'succeeded' },
    ]);
    const { result } = renderHook(() =>
      usePipelineRun({ started, read, rule: ONBOARDING_RUN_POLLING }),
    );
    expect(result.current.run?.state).toBe('notStarted');
    await act(() => vi.advanceTimersByTimeAsync(2_999));
    expect(read).toHaveBeenCalledTimes(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(read).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(4_999));
    expect(read).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(read).toHaveBeenCalledTimes(2);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(result.current.run).toEqual({ id: 7, state: 'completed', result: 'succeeded' });
    expect(result.current.polls).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('keeps polling off-board runs every 10 s while notStarted, and reports a failed read', async () => {
    const read = reader([{ id: 7, state: 'notStarted', result: null }]);
    const { result } = renderHook(() =>
      usePipelineRun({ started, read, rule: OFFBOARD_RUN_POLLING }),
    );
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(read).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(read).toHaveBeenCalledTimes(2);
    expect(result.current.error).toBe('HTTP 503');
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(read).toHaveBeenCalledTimes(2);
  });
});

describe('usePipelineRun with a new start', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("never shows the last run's reads for a new run", async () => {
    const read = vi.fn((_signal: AbortSignal) =>
      Promise.resolve<PipelineRun>({ id: 7, state: 'completed', result: 'succeeded' }),
    );
    const { result, rerender } = renderHook(
      ({ run }: { run: PipelineRun }) =>
        usePipelineRun({ started: run, read, rule: ONBOARDING_RUN_POLLING }),
      { initialProps: { run: started } },
    );
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(result.current).toEqual({
      run: { id: 7, state: 'completed', result: 'succeeded' },
      polls: 1,
      error: undefined,
    });
    const next: PipelineRun = { id: 8, state: 'notStarted', result: null };
    rerender({ run: next });
    expect(result.current).toEqual({ run: next, polls: 0, error: undefined });
  });
});
