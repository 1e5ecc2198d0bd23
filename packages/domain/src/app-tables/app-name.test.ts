import { describe, expect, it } from 'vitest';

import { appNameProblem, isAppName } from './app-name';

describe('app names', () => {
  it('accepts product names', () => {
    for (const name of [
      '7-Zip',
      'Google Chrome',
      'Notepad++',
      'Microsoft.VisualStudioCode',
      'Adobe Acrobat (64-bit) 24_1',
    ]) {
      expect(isAppName(name)).toBe(true);
    }
  });

  it('refuses quotes, $, backticks, separators, control characters and overlong names', () => {
    for (const name of [
      "Probe'; Start-Process calc; '",
      'a"b',
      '$(calc)',
      'a`b',
      'a;b',
      'a|b',
      'a\nb',
      ' leading',
      '',
      'x'.repeat(129),
    ]) {
      expect(appNameProblem(name)).toMatch(/^must be at most 128/);
    }
  });
});
