import { describe, expect, it } from 'vitest';

import { countOf, displayArray, inNumber, textOf } from './formatting';

describe('textOf', () => {
  it('writes scalars as String does', () => {
    expect(textOf('Contoso')).toBe('Contoso');
    expect(textOf(42)).toBe('42');
    expect(textOf(false)).toBe('false');
    expect(textOf(null)).toBe('null');
    expect(textOf(undefined)).toBe('undefined');
  });

  it('writes objects and arrays as JSON, never as [object Object]', () => {
    expect(textOf({ en: 'Block legacy auth' })).toBe('{"en":"Block legacy auth"}');
    expect(textOf(['mfa', 'compliantDevice'])).toBe('["mfa","compliantDevice"]');
    expect(displayArray([{ id: 1 }, 'b'])).toBe('{"id":1}, b');
  });
});

describe('counts in words', () => {
  it('puts a unit in the number its count takes, with an irregular plural where given', () => {
    expect(countOf(1, 'minute')).toBe('1 minute');
    expect(countOf(0, 'second')).toBe('0 seconds');
    expect(countOf(1, 'policy', 'policies')).toBe('1 policy');
    expect(countOf(3, 'policy', 'policies')).toBe('3 policies');
    expect(inNumber(1, 'This policy', 'These policies')).toBe('This policy');
    expect(inNumber(2, 'This policy', 'These policies')).toBe('These policies');
  });
});
