import { describe, expect, it } from 'vitest';

import {
  addMatches,
  confirmedAgo,
  emptyMatchingConfig,
  matchingProgress,
  MATCHING_MESSAGES,
  removeMatch,
  type ConfirmedMatch,
} from './matches';

const match = (o: Partial<ConfirmedMatch> = {}): ConfirmedMatch => ({
  baselineName: 'CA000',
  clientName: 'CA000 - Require MFA',
  clientId: 'c1',
  score: 92,
  scores: { conditions: 100, grantControls: 100, sessionControls: 100 },
  confirmedAt: '2026-03-10T12:00:00.000Z',
  ...o,
});
const NOW = new Date('2026-03-10T12:00:00Z');

describe('matching configuration', () => {
  it("starts empty at version '1.0'", () => {
    expect(emptyMatchingConfig('FAB', NOW)).toEqual({
      version: '1.0',
      clientCode: 'FAB',
      timestamp: NOW.toISOString(),
      matches: [],
    });
  });

  it('adds matches, keeping the earlier of two that are the same', () => {
    let cfg = addMatches(emptyMatchingConfig('FAB'), [match()], NOW);
    cfg = addMatches(
      cfg,
      [match({ clientName: 'other', score: 61 }), match({ baselineName: 'CA001', clientId: 'c2' })],
      NOW,
    );
    expect(cfg.matches.map((m) => [m.baselineName, m.score])).toEqual([
      ['CA000', 92],
      ['CA001', 92],
    ]);
    const byId = addMatches(cfg, [
      match({ baselineId: 'b1', baselineName: 'X', clientId: 'c9' }),
      match({ baselineId: 'b1', baselineName: 'Y', clientId: 'c8' }),
    ]);
    expect(byId.matches.map((m) => m.baselineName)).toEqual(['CA000', 'CA001', 'X']);
  });

  it('deletes the entry of a baseline name', () => {
    const cfg = addMatches(emptyMatchingConfig('FAB'), [
      match(),
      match({ baselineName: 'CA001', clientId: 'c2' }),
    ]);
    expect(removeMatch(cfg, 'CA000').matches.map((m) => m.baselineName)).toEqual(['CA001']);
  });

  it('reports progress as confirmed over confirmed plus unmatched', () => {
    expect(matchingProgress(0, 0)).toBe(0);
    expect(matchingProgress(1, 2)).toBe(33);
    expect(matchingProgress(2, 0)).toBe(100);
  });

  it('words the confirmed date as just now, Nm, Nh, Nd ago, then a date', () => {
    const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
    expect(confirmedAgo(at(-59_000), NOW)).toBe('just now');
    expect(confirmedAgo(at(-60_000), NOW)).toBe('1m ago');
    expect(confirmedAgo(at(-59 * 60_000), NOW)).toBe('59m ago');
    expect(confirmedAgo(at(-60 * 60_000), NOW)).toBe('1h ago');
    expect(confirmedAgo(at(-23 * 3_600_000), NOW)).toBe('23h ago');
    expect(confirmedAgo(at(-24 * 3_600_000), NOW)).toBe('1d ago');
    expect(confirmedAgo(at(-6 * 86_400_000), NOW)).toBe('6d ago');
    expect(confirmedAgo(at(-7 * 86_400_000), NOW)).toBe('3 Mar 2026');
    expect(confirmedAgo('nonsense', NOW)).toBe('Unknown');
  });

  it('words the prompts and alerts as the spec does', () => {
    expect(MATCHING_MESSAGES.clearPrompt(3)).toBe(
      'Are you sure you want to clear all 3 confirmed matches?',
    );
    expect(MATCHING_MESSAGES.autoMatched(2)).toBe(
      'Successfully auto-matched 2 high-confidence policies!',
    );
  });
});
