import { describe, expect, it } from 'vitest';

import { breakPieces } from './break-points';

describe('breakPieces (ADR 039)', () => {
  it('breaks after hyphens, dots and other separators, keeping the text intact', () => {
    const id = 'CA001-Global-AttackSurfaceReduction-AnyApp-AnyPlatform';
    expect(breakPieces(id)).toEqual([
      'CA001-',
      'Global-',
      'AttackSurfaceReduction-',
      'AnyApp-',
      'AnyPlatform',
    ]);
    expect(breakPieces('featureSettings.numberMatchingRequiredState.state', 30)).toEqual([
      'featureSettings.',
      'numberMatchingRequiredState.',
      'state',
    ]);
    expect(breakPieces('62e90394-69f5-4237-9190-012177145e10').join('')).toBe(
      '62e90394-69f5-4237-9190-012177145e10',
    );
    expect(breakPieces('["a","b"]')).toEqual(['[', '"a",', '"b"]']);
    expect(breakPieces('https://x.example/a...')).toEqual(['https://', 'x.', 'example/', 'a...']);
  });

  it('keeps short names whole: no break inside displayName', () => {
    expect(breakPieces('displayName')).toEqual(['displayName']);
    expect(breakPieces('displayName', 8)).toEqual(['display', 'Name']);
  });

  it('breaks a run too long for a line at its camelCase words, not mid-word', () => {
    expect(breakPieces('enabledForReportingButNotEnforced')).toEqual([
      'enabled',
      'For',
      'Reporting',
      'But',
      'Not',
      'Enforced',
    ]);
    expect(breakPieces('AllowedToReadBitlockerKeysForOwnedDevice')).toContain('Bitlocker');
    expect(breakPieces('HTTPSRedirectEnabledForAllSites')).toEqual([
      'HTTPS',
      'Redirect',
      'Enabled',
      'For',
      'All',
      'Sites',
    ]);
  });

  it('cuts a long run without words every longRun characters', () => {
    const hex = '0123456789abcdef0123456789abcdef01234567';
    const pieces = breakPieces(hex, 16);
    expect(pieces.join('')).toBe(hex);
    expect(pieces.map((p) => p.length)).toEqual([14, 14, 12]);
  });

  it('never returns empty pieces', () => {
    for (const text of ['', '--', 'a  b', '[]', 'x.']) {
      expect(breakPieces(text).every((p) => p.length > 0)).toBe(true);
      expect(breakPieces(text).join('')).toBe(text);
    }
  });
});
