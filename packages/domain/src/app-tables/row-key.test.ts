import { describe, expect, it } from 'vitest';

import { formatRowKey, nextRowKey, nextRowKeys } from './row-key';

describe('row keys', () => {
  it("is '0001' for an empty table, a table that failed to load, or no numeric key", () => {
    expect(nextRowKey([])).toBe('0001');
    expect(nextRowKey(undefined)).toBe('0001');
    expect(nextRowKey(null)).toBe('0001');
    expect(nextRowKey([{ RowKey: 'abc' }])).toBe('0001');
  });

  it('is the highest existing plus one, zero-padded to 4 digits', () => {
    expect(nextRowKey([{ RowKey: '0001' }])).toBe('0002');
    expect(nextRowKey([{ RowKey: '0009' }, { RowKey: '0003' }, { RowKey: '0010' }])).toBe('0011');
    expect(nextRowKey([{ RowKey: '0099' }, { RowKey: 'x' }])).toBe('0100');
    expect(nextRowKey([{ RowKey: '0999' }])).toBe('1000');
  });

  it('ignores gaps and order', () => {
    expect(nextRowKey([{ RowKey: '0042' }, { RowKey: '0001' }])).toBe('0043');
  });

  it('gives consecutive keys for several new rows', () => {
    expect(nextRowKeys([{ RowKey: '0007' }], 3)).toEqual(['0008', '0009', '0010']);
    expect(nextRowKeys([], 2)).toEqual(['0001', '0002']);
  });

  it('formats numbers with 4 digits', () => {
    expect(formatRowKey(5)).toBe('0005');
    expect(formatRowKey(1234)).toBe('1234');
  });
});
