// How a deploy finds the tenant's object for a baseline file (issue 11 §5): by id, then by display
// name; and when it leaves an object alone.
import { workloadFor } from '@aegis/domain';
import { describe, expect, it } from 'vitest';

import { alreadyApplied, findExisting, writableBody } from './deploy';

const CA = workloadFor('ConditionalAccess', 'Policy')!;
const RULES = workloadFor('Exchange', 'TransportRule')!;

describe('findExisting', () => {
  const live = [
    { id: 'tenant-1', displayName: 'CA001-Block-Legacy' },
    { id: 'baseline-2', displayName: 'CA002 renamed by the client' },
  ];

  it('matches by id first, even when the tenant renamed the object', () => {
    expect(
      findExisting(CA, live, { id: 'baseline-2', displayName: 'CA002-Require-MFA' }, 'CA002'),
    ).toBe(live[1]);
  });

  it('then by display name, when the ids differ (another tenant)', () => {
    expect(
      findExisting(CA, live, { id: 'baseline-1', displayName: 'CA001-Block-Legacy' }, 'x'),
    ).toBe(live[0]);
  });

  it('finds nothing for an object the tenant lacks', () => {
    expect(findExisting(CA, live, { id: 'baseline-3', displayName: 'CA003' }, 'CA003')).toBe(
      undefined,
    );
  });

  it('matches Exchange objects by Guid, then by Name', () => {
    const rules = [
      { Name: 'Block Executables', Identity: 'Block Executables', Guid: 'g-1' },
      { Name: 'Client rule', Identity: 'Client rule', Guid: 'g-2' },
    ];
    expect(findExisting(RULES, rules, { Name: 'Renamed', Guid: 'g-2' }, 'Renamed')).toBe(rules[1]);
    expect(
      findExisting(RULES, rules, { Name: 'Block Executables', Guid: 'g-9' }, 'Block Executables'),
    ).toBe(rules[0]);
  });
});

describe('what a deploy writes', () => {
  it('never sends the properties the service sets itself', () => {
    expect(
      writableBody(
        {
          id: 'x',
          '@odata.context': 'c',
          createdDateTime: 'd',
          Guid: 'g',
          displayName: 'P',
          state: 'enabled',
        },
        workloadFor('ConditionalAccess', 'Policy')!,
      ),
    ).toEqual({ displayName: 'P', state: 'enabled' });
  });

  it("leaves out what the workload's service calls read-only (SharePoint's managed paths)", () => {
    expect(
      writableBody(
        {
          '@odata.context': 'c',
          availableManagedPathsForSiteCreation: ['/sites/'],
          sharingCapability: 'disabled',
        },
        workloadFor('SharePoint', 'SharePointSettings')!,
      ),
    ).toEqual({ sharingCapability: 'disabled' });
  });

  it('leaves an object alone when every property the baseline sets already has its value', () => {
    const tenant = { id: 't', displayName: 'P', state: 'enabled', extra: 1 };
    expect(alreadyApplied(tenant, { displayName: 'P', state: 'enabled' })).toBe(true);
    expect(alreadyApplied(tenant, { displayName: 'P', state: 'disabled' })).toBe(false);
  });
});
