import { describe, expect, it } from 'vitest';

import { breakable, formatReportDate, generatedByName } from '../pdf/format';

describe('report dates and names', () => {
  it('formats the header date en-GB', () => {
    expect(formatReportDate(new Date(2025, 4, 1, 12))).toBe('01/05/2025');
  });

  it('credits the display name, else the UPN', () => {
    expect(generatedByName({ displayName: 'Jamie Rivera', upn: 'j@x.example' })).toBe(
      'Jamie Rivera',
    );
    expect(generatedByName({ displayName: '  ', upn: 'j@x.example' })).toBe('j@x.example');
    expect(generatedByName({ upn: 'j@x.example' })).toBe('j@x.example');
  });
});

describe('breakable', () => {
  it('adds invisible break points only', () => {
    const text = 'conditions.users.excludeUsers[0]/displayName';
    expect(breakable(text).replace(/\u200b/g, '')).toBe(text);
    expect(breakable(text)).toContain('.\u200b');
  });
});
