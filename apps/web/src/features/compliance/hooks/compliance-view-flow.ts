import {
  autoMatches,
  dedupeMatches,
  isSameMatch,
  type ConfirmedMatch,
  type DeviationSummary,
  type UnmatchedSummary,
} from '@aegis/domain';

/** Smart matching's draft (spec 3 §4): matches confirmed this session, suggestions dismissed. */
export interface MatchingDraft {
  confirmed: { match: ConfirmedMatch; path: string }[];
  dismissed: string[];
}

/** The dialog over the view: a policy's deviations (with the accept error, if any) or the export. */
type ComplianceDialog =
  | { open: 'none' }
  | { open: 'detail'; group: DeviationSummary; error?: string }
  | { open: 'export' };

export interface ComplianceViewState {
  /** Smart matching (spec 3 §4): off, on with a draft, or saving the draft */
  matching: 'off' | 'on' | 'saving';
  draft: MatchingDraft;
  dialog: ComplianceDialog;
}

export type ComplianceViewAction =
  | { type: 'startMatching' }
  /** leave matching, dropping the draft (Exit, or after a save whatever its outcome) */
  | { type: 'exitMatching' }
  | { type: 'confirm'; match: ConfirmedMatch; path: string }
  | { type: 'dismiss'; path: string }
  | { type: 'undo'; path: string }
  | { type: 'autoMatched'; matches: readonly ConfirmedMatch[] }
  /** the draft's duplicates removed (Clean Up Duplicates) */
  | { type: 'cleanedUp'; kept: readonly ConfirmedMatch[] }
  | { type: 'clearDraft' }
  | { type: 'saving' }
  | { type: 'openDetail'; group: DeviationSummary }
  /** an acceptance sent from the detail dialog: its last error goes */
  | { type: 'accepting' }
  | { type: 'acceptFailed'; message: string }
  | { type: 'openExport' }
  | { type: 'closeDialog' };

const NO_DRAFT: MatchingDraft = { confirmed: [], dismissed: [] };

export const initialComplianceViewState: ComplianceViewState = {
  matching: 'off',
  draft: NO_DRAFT,
  dialog: { open: 'none' },
};

/**
 * The Baseline Compliance view as a state machine: smart matching's draft and the dialog. A match
 * already in the draft is not added twice; an accept failure shows only in the dialog it came from.
 */
export function complianceViewReducer(
  state: ComplianceViewState,
  action: ComplianceViewAction,
): ComplianceViewState {
  const { draft } = state;
  switch (action.type) {
    case 'startMatching':
      return { ...state, matching: 'on' };
    case 'exitMatching':
      return { ...state, matching: 'off', draft: NO_DRAFT };
    case 'confirm':
      if (draft.confirmed.some((c) => isSameMatch(c.match, action.match))) return state;
      return {
        ...state,
        draft: {
          ...draft,
          confirmed: [...draft.confirmed, { match: action.match, path: action.path }],
        },
      };
    case 'dismiss':
      return { ...state, draft: { ...draft, dismissed: [...draft.dismissed, action.path] } };
    case 'undo':
      return {
        ...state,
        draft: { ...draft, confirmed: draft.confirmed.filter((c) => c.path !== action.path) },
      };
    case 'autoMatched':
      return {
        ...state,
        draft: {
          ...draft,
          confirmed: [
            ...draft.confirmed,
            ...action.matches.map((match) => ({ match, path: match.baselinePath ?? '' })),
          ],
        },
      };
    case 'cleanedUp':
      return {
        ...state,
        draft: {
          ...draft,
          confirmed: draft.confirmed.filter((c) => action.kept.includes(c.match)),
        },
      };
    case 'clearDraft':
      return { ...state, draft: { ...draft, confirmed: [] } };
    case 'saving':
      return state.matching === 'on' ? { ...state, matching: 'saving' } : state;
    case 'openDetail':
      return { ...state, dialog: { open: 'detail', group: action.group } };
    case 'accepting':
      return state.dialog.open === 'detail'
        ? { ...state, dialog: { open: 'detail', group: state.dialog.group } }
        : state;
    case 'acceptFailed':
      return state.dialog.open === 'detail'
        ? { ...state, dialog: { ...state.dialog, error: action.message } }
        : state;
    case 'openExport':
      return { ...state, dialog: { open: 'export' } };
    case 'closeDialog':
      return { ...state, dialog: { open: 'none' } };
  }
}

/** Whether `match` is saved already, waits in this browser, or is in the draft (spec 3 §4). */
export function isMatchTaken(
  draft: MatchingDraft,
  saved: readonly ConfirmedMatch[],
  match: ConfirmedMatch,
): boolean {
  return [...saved, ...draft.confirmed.map((c) => c.match)].some((m) => isSameMatch(m, match));
}

/** Auto-match's matches: unmatched policies not handled in the draft, and not taken already. */
export function autoMatchesFor(
  draft: MatchingDraft,
  saved: readonly ConfirmedMatch[],
  unmatched: readonly UnmatchedSummary[],
  now: Date,
): ConfirmedMatch[] {
  const handled = new Set([...draft.confirmed.map((c) => c.path), ...draft.dismissed]);
  const open = unmatched.filter((u) => !handled.has(u.path));
  return autoMatches(open, now).filter((m) => !isMatchTaken(draft, saved, m));
}

/** The draft's matches without duplicates, and how many were removed. */
export function cleanedUpDraft(draft: MatchingDraft): { kept: ConfirmedMatch[]; removed: number } {
  const { matches, removed } = dedupeMatches(draft.confirmed.map((c) => c.match));
  return { kept: matches, removed };
}
