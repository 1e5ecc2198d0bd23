import { describe, expect, it } from 'vitest';

import { safeFileName } from './file-names';

describe('safeFileName', () => {
  it('replaces what a file system or git path cannot hold', () => {
    expect(safeFileName('a/b\\c:d*e?f"g<h>i|j\u0001k')).toBe('a_b_c_d_e_f_g_h_i_j_k');
  });

  it('keeps inner spaces, trims the outer ones', () => {
    expect(safeFileName('  Contoso Ltd  ')).toBe('Contoso Ltd');
  });

  it('never answers an empty name', () => {
    expect(safeFileName('   ')).toBe('_');
    expect(safeFileName('')).toBe('_');
  });
});
