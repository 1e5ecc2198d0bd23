import { describe, expect, it } from 'vitest';

import { actorName } from '../../src/plugins/auth';

describe('actorName', () => {
  const account = { oid: 'oid-1', roles: [] };

  it('names the account by its user name', () => {
    expect(actorName({ ...account, upn: 'ana@msp.example', displayName: 'Ana' })).toBe(
      'ana@msp.example',
    );
  });

  it('falls back to the display name when the token carries no user name', () => {
    expect(actorName({ ...account, upn: '', displayName: 'Ana' })).toBe('Ana');
  });

  it('says so when the token names nobody', () => {
    expect(actorName({ ...account, upn: '' })).toBe('unknown user');
  });
});
