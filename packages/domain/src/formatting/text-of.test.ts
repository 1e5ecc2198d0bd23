import { describe, expect, it } from 'vitest';

import { displayArray, textOf } from './formatting';

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
