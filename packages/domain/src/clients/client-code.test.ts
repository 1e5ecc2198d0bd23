import { describe, expect, it } from 'vitest';

import { InputError } from '../errors';

import { isClientCode, parseClientCode } from './client-code';

describe('client code', () => {
  it('accepts exactly three capital letters', () => {
    expect(parseClientCode('ABC')).toBe('ABC');
  });

  it.each(['AB', 'ABCD', 'abc', 'AB1', '', ' ABC'])('rejects %j naming the field', (value) => {
    expect(isClientCode(value)).toBe(false);
    expect(() => parseClientCode(value, 'client')).toThrow(InputError);
    expect(() => parseClientCode(value, 'client')).toThrow(/client must be three capital letters/);
  });
});
