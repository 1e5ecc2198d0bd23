import { describe, expect, it } from 'vitest';

import {
  entityKeyProblem,
  entitySizeInBytes,
  fitsStringProperty,
  isEntityKey,
  MAX_ENTITY_BYTES,
} from './limits';

describe('Table storage limits', () => {
  it('refuses keys with / \\ # ?, control characters, empty or above 1 KiB', () => {
    expect(isEntityKey('appinfo-pk1')).toBe(true);
    expect(isEntityKey('0001')).toBe(true);
    for (const bad of [
      'a/b',
      'a\\b',
      'a#b',
      'a?b',
      'a\tb',
      'a\u0000b',
      'a\u007fb',
      'a\u0085b',
      '',
    ]) {
      expect([bad, isEntityKey(bad)]).toEqual([bad, false]);
    }
    expect(entityKeyProblem('a#b')).toContain("'#'");
    expect(entityKeyProblem('a\tb')).toContain('U+0009');
    expect(isEntityKey('k'.repeat(512))).toBe(true);
    expect(isEntityKey('k'.repeat(513))).toBe(false);
  });

  it('lets a string property hold 64 KiB of UTF-16, and counts an entity as the service does', () => {
    expect(fitsStringProperty('x'.repeat(32 * 1024))).toBe(true);
    expect(fitsStringProperty('x'.repeat(32 * 1024 + 1))).toBe(false);
    expect(fitsStringProperty(12)).toBe(true);
    // 4 + keys (2×2 + 4×2) + property: 8 + name 'A' (2) + string (4 + 2)
    expect(entitySizeInBytes({ PartitionKey: 'pk', RowKey: '0001', A: 'x', etag: 'e' })).toBe(
      4 + 4 + 8 + 8 + 2 + 6,
    );
    const big = Object.fromEntries(
      Array.from({ length: 17 }, (_, i) => [`P${i}`, 'y'.repeat(32 * 1024)]),
    );
    expect(entitySizeInBytes(big)).toBeGreaterThan(MAX_ENTITY_BYTES);
  });
});
