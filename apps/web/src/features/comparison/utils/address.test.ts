import { describe, expect, it } from 'vitest';

import { readComparisonAddress, writeComparisonAddress } from './address';

describe('the comparison address', () => {
  it('reads the selection, the run and the filters', () => {
    expect(
      readComparisonAddress(
        new URLSearchParams('client=ABC&type=options&run=1&show=failed&fails=1&q=exch'),
        'standard',
      ),
    ).toEqual({
      client: 'ABC',
      baselineType: 'options',
      run: true,
      filter: 'failed',
      onlyFails: true,
      search: 'exch',
    });
  });

  it('reads anything unknown as the default, and no run without a client', () => {
    expect(
      readComparisonAddress(new URLSearchParams('client=abc&type=cis&run=1&show=x'), 'options'),
    ).toEqual({
      client: '',
      baselineType: 'options',
      run: false,
      filter: 'all',
      onlyFails: false,
      search: '',
    });
  });

  it('writes only what differs from the defaults and keeps the variant parameter', () => {
    const written = writeComparisonAddress(
      new URLSearchParams('baseline=options&client=CON&q=old'),
      {
        client: 'ABC',
        baselineType: 'options',
        run: true,
        filter: 'all',
        onlyFails: false,
        search: '',
      },
      'options',
    );
    expect(written.toString()).toBe('baseline=options&client=ABC&run=1');
    expect(readComparisonAddress(written, 'options')).toMatchObject({ client: 'ABC', run: true });
  });
});
