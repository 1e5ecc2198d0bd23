import type { ComparisonBaselineType } from '@aegis/contracts';
import { useEffect, useMemo, useReducer, useRef } from 'react';
import { useSearchParams } from 'react-router';

import { useStagedProgress } from '../../../lib/use-staged-progress';
import { loadConfigurations, runComparison } from '../api/comparison-api';
import { readComparisonAddress, writeComparisonAddress } from '../utils/address';
import { filterCategories, progressMessage, toView } from '../utils/view-model';

import {
  comparisonReducer,
  initialComparisonState,
  type ConfigurationsView,
} from './comparison-flow';

/**
 * The Configuration Comparison flow: its state (`comparisonReducer`), the address it mirrors,
 * the comparison run with its staged progress, and the load of both configurations.
 */
export function useComparisonFlow(defaultBaselineType: ComparisonBaselineType) {
  // The selection, the run and the filters live in the address (ADR 055): a reload, Back or a
  // shared link runs the same comparison again. The controls answer from state at once; the
  // address follows, replacing its entry so typing stays out of the history.
  const [params, setParams] = useSearchParams();
  const [state, dispatch] = useReducer(comparisonReducer, undefined, () =>
    initialComparisonState(readComparisonAddress(params, defaultBaselineType)),
  );
  const { address, run } = state;
  const { client, baselineType, filter, onlyFails, search } = address;
  useEffect(() => {
    const next = writeComparisonAddress(params, address, defaultBaselineType);
    if (next.toString() !== params.toString()) setParams(next, { replace: true });
  }, [address, params, setParams, defaultBaselineType]);

  const abort = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => abort.current?.abort(), []);
  const bothPanel = useRef<HTMLDivElement>(null);

  const progress = useStagedProgress(progressMessage);
  // The results show once the bar has played every stage the server reported, up to Complete!.
  const finished = run.status === 'done' && progress.settled;
  const running = run.status === 'running' || (run.status === 'done' && !progress.settled);
  const result = finished ? run.result : undefined;
  const view = useMemo(() => (result ? toView(result) : undefined), [result]);
  const shown = useMemo(
    () => (view ? filterCategories(view.categories, { filter, onlyFails, search }) : []),
    [view, filter, onlyFails, search],
  );

  const start = async () => {
    if (!client || running) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    dispatch({ type: 'started' });
    progress.reset(0);
    try {
      const outcome = await runComparison(
        { client, baselineType },
        progress.report,
        controller.signal,
      );
      progress.report(100);
      dispatch({ type: 'compared', result: outcome });
    } catch (error) {
      if (controller.signal.aborted) return;
      dispatch({ type: 'comparisonFailed', message: (error as Error).message });
    }
  };

  // An address that says the comparison was run shows its results again on arrival (leaving
  // the page aborts it, as any run).
  useEffect(() => {
    if (address.run) void start();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on arrival only
  }, []);

  const viewConfigurations = async () => {
    if (!client) return;
    const show = (view: ConfigurationsView) => dispatch({ type: 'configurations', client, view });
    show({ status: 'loading', percent: 0 });
    try {
      const configurations = await loadConfigurations(client, (percent) =>
        show({ status: 'loading', percent }),
      );
      show({ status: 'done', configurations });
      // The panel opens below the results: bring it into view, or the click seems to do nothing.
      requestAnimationFrame(() =>
        bothPanel.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' }),
      );
    } catch (error) {
      show({ status: 'error', message: (error as Error).message });
    }
  };

  /** A new selection: the results shown were for the old one. */
  const chooseClient = (code: string) => {
    abort.current?.abort();
    dispatch({ type: 'chooseClient', client: code });
  };
  const chooseBaseline = (type: ComparisonBaselineType) => {
    abort.current?.abort();
    dispatch({ type: 'chooseBaseline', baselineType: type });
  };

  return {
    ...state,
    dispatch,
    progress,
    finished,
    running,
    result,
    view,
    shown,
    bothPanel,
    start,
    viewConfigurations,
    chooseClient,
    chooseBaseline,
  };
}

export type ComparisonFlow = ReturnType<typeof useComparisonFlow>;
