import { describe, expect, it } from 'vitest';

import {
  breakable,
  formatReportDate,
  formatReportValue,
  generatedByName,
  truncateValue,
} from './format';

describe('truncateValue', () => {
  it('keeps 50 characters and shortens 51 to 47 plus "..." (spec 1 §9)', () => {
    const fifty = 'x'.repeat(50);
    expect(truncateValue(fifty)).toBe(fifty);
    const long = 'abcdefghij'.repeat(6);
    const shown = truncateValue(long);
    expect(shown).toBe(`${long.slice(0, 47)}...`);
    expect(shown).toHaveLength(50);
  });

  it('does not split a character made of two code units', () => {
    const shown = truncateValue('é'.repeat(46) + '😀'.repeat(10));
    expect(Array.from(shown)).toHaveLength(50);
    expect(shown.endsWith('😀...')).toBe(true);
  });
});

describe('formatReportValue', () => {
  it('shows absent values as Missing and the empty string as Empty', () => {
    expect(formatReportValue(undefined)).toBe('Missing');
    expect(formatReportValue('Missing')).toBe('Missing');
    expect(formatReportValue('')).toBe('Empty');
  });

  it('shows scalars as text and objects as compact JSON, truncated', () => {
    expect(formatReportValue(true)).toBe('true');
    expect(formatReportValue(12)).toBe('12');
    expect(formatReportValue(null)).toBe('null');
    expect(formatReportValue(['.exe', '.js'])).toBe('[".exe",".js"]');
    expect(formatReportValue({ a: 'x'.repeat(60) })).toBe(`{"a":"${'x'.repeat(41)}...`);
  });
});

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
