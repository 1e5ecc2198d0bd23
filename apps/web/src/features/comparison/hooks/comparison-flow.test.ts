import type { ComparisonResult, Configurations } from '@aegis/contracts';
import { describe, expect, it } from 'vitest';

import type { ComparisonAddress } from '../utils/address';

import {
  comparisonReducer,
  initialComparisonState,
  type ComparisonAction,
  type ComparisonState,
} from './comparison-flow';

const address: ComparisonAddress = {
  client: 'ABC',
  baselineType: 'standard',
  run: false,
  filter: 'all',
  onlyFails: false,
  search: '',
};
// the reducer only keeps these; their contents are the view model's business
const result = { client: 'ABC' } as ComparisonResult;
const configurations = {} as Configurations;

const run = (from: ComparisonState, ...actions: ComparisonAction[]) =>
  actions.reduce(comparisonReducer, from);
const initial = initialComparisonState(address);

describe('comparisonReducer', () => {
  it('marks the address as run, collapses every area and shows the outcome', () => {
    const expandedBefore = run(initial, { type: 'expand', categories: ['Exchange'] });
    const started = run(expandedBefore, { type: 'started' });
    expect(started.address.run).toBe(true);
    expect(started.run).toEqual({ status: 'running' });
    expect(started.expanded.size).toBe(0);

    expect(run(started, { type: 'compared', result }).run).toEqual({ status: 'done', result });
    expect(run(started, { type: 'comparisonFailed', message: 'boom' }).run).toEqual({
      status: 'error',
      message: 'boom',
    });
  });

  it('drops the results and the run from the address when the client or baseline changes', () => {
    const done = run(
      initial,
      { type: 'started' },
      { type: 'compared', result },
      { type: 'configurations', client: 'ABC', view: { status: 'done', configurations } },
    );
    const otherClient = run(done, { type: 'chooseClient', client: 'XYZ' });
    expect(otherClient.address).toMatchObject({ client: 'XYZ', run: false });
    expect(otherClient.run).toEqual({ status: 'idle' });
    expect(otherClient.configurations).toEqual({ status: 'idle' });

    // both configurations are the client's, whatever the baseline type
    const otherBaseline = run(done, { type: 'chooseBaseline', baselineType: 'options' });
    expect(otherBaseline.address).toMatchObject({ baselineType: 'options', run: false });
    expect(otherBaseline.run).toEqual({ status: 'idle' });
    expect(otherBaseline.configurations.status).toBe('done');
  });

  it('ignores an outcome that arrives when no comparison is running', () => {
    const changed = run(initial, { type: 'started' }, { type: 'chooseClient', client: 'XYZ' });
    expect(run(changed, { type: 'compared', result })).toBe(changed);
    expect(run(changed, { type: 'comparisonFailed', message: 'aborted' })).toBe(changed);
  });

  it('shows configurations only of the client still chosen', () => {
    const changed = run(
      initial,
      { type: 'configurations', client: 'ABC', view: { status: 'loading', percent: 40 } },
      { type: 'chooseClient', client: 'XYZ' },
    );
    const late = { status: 'done', configurations } as const;
    expect(run(changed, { type: 'configurations', client: 'ABC', view: late })).toBe(changed);
    expect(
      run(changed, { type: 'configurations', client: 'XYZ', view: late }).configurations,
    ).toEqual(late);
  });

  it('keeps the filters in the address without touching the run', () => {
    const done = run(initial, { type: 'started' }, { type: 'compared', result });
    const filtered = run(
      done,
      { type: 'filter', change: { filter: 'failed' } },
      { type: 'filter', change: { search: 'mfa', onlyFails: true } },
    );
    expect(filtered.address).toEqual({
      ...address,
      run: true,
      filter: 'failed',
      onlyFails: true,
      search: 'mfa',
    });
    expect(filtered.run).toBe(done.run);
  });

  it('toggles one area and expands or collapses them all', () => {
    const some = run(
      initial,
      { type: 'toggle', category: 'Exchange' },
      { type: 'toggle', category: 'Teams' },
      { type: 'toggle', category: 'Exchange' },
    );
    expect([...some.expanded]).toEqual(['Teams']);
    expect([...run(some, { type: 'expand', categories: ['A', 'B'] }).expanded]).toEqual(['A', 'B']);
    expect(run(some, { type: 'expand', categories: [] }).expanded.size).toBe(0);
  });

  it('opens one dialog at a time and closes it', () => {
    const exporting = run(initial, { type: 'open', dialog: { open: 'export' } });
    expect(exporting.dialog).toEqual({ open: 'export' });
    expect(run(exporting, { type: 'close' }).dialog).toEqual({ open: 'none' });
  });
});
