import type { ComparisonBaselineType, ComparisonResult, Configurations } from '@aegis/contracts';

import type { ComparisonAddress } from '../utils/address';
import type { ViewCategory, ViewFilters, ViewPolicy } from '../utils/view-model';

type ComparisonRun =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; result: ComparisonResult }
  | { status: 'error'; message: string };

/** Both configurations of the client, loaded on demand below the results. */
export type ConfigurationsView =
  | { status: 'idle' }
  | { status: 'loading'; percent: number }
  | { status: 'done'; configurations: Configurations }
  | { status: 'error'; message: string };

type ComparisonDialog =
  | { open: 'none' }
  | { open: 'area'; category: ViewCategory }
  | { open: 'info'; policy: ViewPolicy }
  | { open: 'export' };

export interface ComparisonState {
  /** what the address holds (ADR 055); the hook writes it back to the URL */
  address: ComparisonAddress;
  run: ComparisonRun;
  configurations: ConfigurationsView;
  expanded: ReadonlySet<string>;
  dialog: ComparisonDialog;
}

export type ComparisonAction =
  | { type: 'chooseClient'; client: string }
  | { type: 'chooseBaseline'; baselineType: ComparisonBaselineType }
  | { type: 'filter'; change: Partial<ViewFilters> }
  | { type: 'started' }
  | { type: 'compared'; result: ComparisonResult }
  | { type: 'comparisonFailed'; message: string }
  | { type: 'toggle'; category: string }
  | { type: 'expand'; categories: readonly string[] }
  /** configurations of `client` loading, loaded or failed */
  | { type: 'configurations'; client: string; view: ConfigurationsView }
  | { type: 'open'; dialog: ComparisonDialog }
  | { type: 'close' };

export function initialComparisonState(address: ComparisonAddress): ComparisonState {
  return {
    address,
    run: { status: 'idle' },
    configurations: { status: 'idle' },
    expanded: new Set(),
    dialog: { open: 'none' },
  };
}

/**
 * The Configuration Comparison screen as a state machine. A new client or baseline type drops the
 * results shown (they were for the old selection); an outcome that arrives when no comparison is
 * running, or configurations of a client no longer chosen, change nothing.
 */
export function comparisonReducer(
  state: ComparisonState,
  action: ComparisonAction,
): ComparisonState {
  switch (action.type) {
    case 'chooseClient':
      return {
        ...state,
        address: { ...state.address, client: action.client, run: false },
        run: { status: 'idle' },
        configurations: { status: 'idle' },
      };
    case 'chooseBaseline':
      return {
        ...state,
        address: { ...state.address, baselineType: action.baselineType, run: false },
        run: { status: 'idle' },
      };
    case 'filter':
      return { ...state, address: { ...state.address, ...action.change } };
    case 'started':
      return {
        ...state,
        address: { ...state.address, run: true },
        run: { status: 'running' },
        expanded: new Set(),
      };
    case 'compared':
      return state.run.status === 'running'
        ? { ...state, run: { status: 'done', result: action.result } }
        : state;
    case 'comparisonFailed':
      return state.run.status === 'running'
        ? { ...state, run: { status: 'error', message: action.message } }
        : state;
    case 'toggle': {
      const expanded = new Set(state.expanded);
      if (expanded.has(action.category)) expanded.delete(action.category);
      else expanded.add(action.category);
      return { ...state, expanded };
    }
    case 'expand':
      return { ...state, expanded: new Set(action.categories) };
    case 'configurations':
      return action.client === state.address.client
        ? { ...state, configurations: action.view }
        : state;
    case 'open':
      return { ...state, dialog: action.dialog };
    case 'close':
      return { ...state, dialog: { open: 'none' } };
  }
}
