import type { ConfirmedMatch, DeviationSummary, UnmatchedSummary } from '@aegis/domain';
import { describe, expect, it } from 'vitest';

import {
  autoMatchesFor,
  cleanedUpDraft,
  complianceViewReducer,
  initialComplianceViewState,
  isMatchTaken,
  type ComplianceViewAction,
  type ComplianceViewState,
} from './compliance-view-flow';

const match = (baselineName: string, clientName: string, path = `CA/${baselineName}.json`) =>
  ({
    baselineName,
    clientName,
    clientId: `id-${clientName}`,
    score: 90,
    scores: { conditions: 90, grantControls: 90, sessionControls: 90 },
    confirmedAt: '2026-03-10T12:00:00.000Z',
    baselinePath: path,
  }) as ConfirmedMatch;
// the reducer only keeps the group; its contents are the dialog's business
const group = { path: 'CA/CA001.json' } as DeviationSummary;

const run = (from: ComplianceViewState, ...actions: ComplianceViewAction[]) =>
  actions.reduce(complianceViewReducer, from);
const initial = initialComplianceViewState;

describe('complianceViewReducer', () => {
  it('collects a draft while matching, and drops it on exit', () => {
    const a = match('CA001', 'Require MFA');
    const drafting = run(
      initial,
      { type: 'startMatching' },
      { type: 'confirm', match: a, path: 'CA/CA001.json' },
      { type: 'dismiss', path: 'CA/CA002.json' },
    );
    expect(drafting.matching).toBe('on');
    expect(drafting.draft).toEqual({
      confirmed: [{ match: a, path: 'CA/CA001.json' }],
      dismissed: ['CA/CA002.json'],
    });
    expect(run(drafting, { type: 'undo', path: 'CA/CA001.json' }).draft.confirmed).toEqual([]);
    expect(run(drafting, { type: 'exitMatching' })).toEqual(initial);
  });

  it('does not add a match the draft holds already', () => {
    const a = match('CA001', 'Require MFA');
    const once = run(initial, { type: 'confirm', match: a, path: 'CA/CA001.json' });
    expect(run(once, { type: 'confirm', match: { ...a }, path: 'CA/CA001.json' })).toBe(once);
  });

  it('saves only from matching, and leaves matching with an empty draft after the save', () => {
    expect(run(initial, { type: 'saving' })).toBe(initial);
    const saving = run(
      initial,
      { type: 'startMatching' },
      { type: 'confirm', match: match('CA001', 'MFA'), path: 'CA/CA001.json' },
      { type: 'saving' },
    );
    expect(saving.matching).toBe('saving');
    expect(run(saving, { type: 'exitMatching' })).toMatchObject({
      matching: 'off',
      draft: { confirmed: [], dismissed: [] },
    });
  });

  it('keeps only what clean-up keeps, and clears the confirmed but not the dismissed', () => {
    const a = match('CA001', 'MFA');
    const b = match('CA002', 'Block legacy');
    const drafted = run(
      initial,
      { type: 'confirm', match: a, path: 'CA/CA001.json' },
      { type: 'confirm', match: b, path: 'CA/CA002.json' },
      { type: 'dismiss', path: 'CA/CA003.json' },
    );
    expect(run(drafted, { type: 'cleanedUp', kept: [b] }).draft.confirmed).toEqual([
      { match: b, path: 'CA/CA002.json' },
    ]);
    expect(run(drafted, { type: 'clearDraft' }).draft).toEqual({
      confirmed: [],
      dismissed: ['CA/CA003.json'],
    });
  });

  it('shows an accept failure in the detail dialog until it is sent again, and nowhere else', () => {
    const failed = run(
      initial,
      { type: 'openDetail', group },
      { type: 'acceptFailed', message: 'Failed' },
    );
    expect(failed.dialog).toEqual({ open: 'detail', group, error: 'Failed' });
    expect(run(failed, { type: 'accepting' }).dialog).toEqual({ open: 'detail', group });
    expect(run(failed, { type: 'closeDialog' }).dialog).toEqual({ open: 'none' });
    const exporting = run(initial, { type: 'openExport' });
    expect(run(exporting, { type: 'acceptFailed', message: 'Failed' })).toBe(exporting);
  });
});

describe('smart matching helpers', () => {
  it('finds a match taken when saved, pending or drafted, by id or by names', () => {
    const a = match('CA001', 'MFA');
    const drafted = run(initial, { type: 'confirm', match: a, path: 'CA/CA001.json' }).draft;
    expect(isMatchTaken(drafted, [], { ...a, confirmedAt: 'later' })).toBe(true);
    expect(isMatchTaken(initial.draft, [a], { ...a })).toBe(true);
    expect(isMatchTaken(drafted, [], match('CA002', 'MFA'))).toBe(false);
  });

  it('auto-matches only the unmatched policies the draft has not handled', () => {
    const unmatched = ['CA001', 'CA002', 'CA003'].map(
      (name) =>
        ({
          baselineName: name,
          path: `CA/${name}.json`,
          baselinePolicy: { displayName: name },
          suggestions: [
            {
              clientName: `${name} (client)`,
              clientId: `client-${name}`,
              score: 99,
              scores: { conditions: 99, grantControls: 99, sessionControls: 99 },
            },
          ],
        }) as unknown as UnmatchedSummary,
    );
    const draft = run(
      initial,
      { type: 'confirm', match: match('CA001', 'MFA'), path: 'CA/CA001.json' },
      { type: 'dismiss', path: 'CA/CA002.json' },
    ).draft;
    const matches = autoMatchesFor(draft, [], unmatched, new Date('2026-03-10T12:00:00Z'));
    expect(matches.map((m) => m.baselineName)).toEqual(['CA003']);
  });

  it('cleans up duplicates in the draft and says how many went', () => {
    const a = match('CA001', 'MFA');
    const draft = {
      confirmed: [
        { match: a, path: 'CA/CA001.json' },
        { match: { ...a }, path: 'CA/CA001.json' },
      ],
      dismissed: [],
    };
    const { kept, removed } = cleanedUpDraft(draft);
    expect(kept).toEqual([a]);
    expect(removed).toBe(1);
  });
});
