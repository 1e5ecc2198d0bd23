import type { ComparisonBaselineType } from '@aegis/contracts';

import type { ResultFilter, ViewFilters } from './view-model';

/**
 * What the comparison screen keeps in its address (ADR 055): the client, the baseline type,
 * whether the comparison was run, and the result filters. A reload, Back or a shared link shows
 * the same results: the page runs the comparison again from them (the server answers a repeat
 * from its cache of results by commit). `baseline` is not among them: it picks the page's variant.
 */
export interface ComparisonAddress extends ViewFilters {
  client: string;
  baselineType: ComparisonBaselineType;
  /** the comparison of this client and baseline type was run: show its results */
  run: boolean;
}

const CLIENT_CODE = /^[A-Z]{3}$/;
const FILTERS: readonly ResultFilter[] = ['all', 'passed', 'failed'];

/** Reads the address; anything unknown reads as the default, never as an error. */
export function readComparisonAddress(
  params: URLSearchParams,
  defaultBaselineType: ComparisonBaselineType,
): ComparisonAddress {
  const client = params.get('client') ?? '';
  const type = params.get('type');
  const show = params.get('show') as ResultFilter | null;
  const validClient = CLIENT_CODE.test(client) ? client : '';
  return {
    client: validClient,
    baselineType: type === 'standard' || type === 'options' ? type : defaultBaselineType,
    run: validClient !== '' && params.get('run') === '1',
    filter: show && FILTERS.includes(show) ? show : 'all',
    onlyFails: params.get('fails') === '1',
    search: params.get('q') ?? '',
  };
}

/** The address for `next`, keeping the parameters the screen does not own (the variant's). */
export function writeComparisonAddress(
  current: URLSearchParams,
  next: ComparisonAddress,
  defaultBaselineType: ComparisonBaselineType,
): URLSearchParams {
  const params = new URLSearchParams(current);
  const set = (key: string, value: string | undefined) =>
    value === undefined ? params.delete(key) : params.set(key, value);
  set('client', next.client || undefined);
  set('type', next.baselineType === defaultBaselineType ? undefined : next.baselineType);
  set('run', next.run && next.client ? '1' : undefined);
  set('show', next.filter === 'all' ? undefined : next.filter);
  set('fails', next.onlyFails ? '1' : undefined);
  set('q', next.search || undefined);
  return params;
}
