import { describe, expect, it } from 'vitest';

import { evaluateCompliance } from '../comparison';

import {
  acceptanceExpiryProblem,
  acceptanceStatus,
  acceptDeviations,
  acceptedMessage,
  applyAcceptedDeviations,
  emptyAcceptedDeviations,
  isAcceptanceExpired,
  isRealIsoDay,
  latestAcceptanceExpiry,
  MAX_ACCEPTANCE_DAYS,
  revokeAcceptedDeviations,
} from './accepted-deviations';

const PATH = 'AzureAD/AuthorizationPolicy/Authorization Policy.json';
const baseline = [
  {
    path: PATH,
    content: {
      displayName: 'Authorization Policy',
      allowInvitesFrom: 'adminsAndGuestInviters',
      blockMsolPowerShell: true,
      guestUserRoleId: 'a',
    },
  },
  {
    path: 'Teams/MeetingPolicy/Global.json',
    content: { Identity: 'Global', AllowRecording: false },
  },
];
const client = (over: Record<string, unknown> = {}) => [
  {
    path: PATH,
    content: {
      ...baseline[0]?.content,
      allowInvitesFrom: 'everyone',
      guestUserRoleId: 'b',
      ...over,
    },
  },
  {
    path: 'Teams/MeetingPolicy/Global.json',
    content: { Identity: 'Global', AllowRecording: false },
  },
];
const DAY = new Date('2026-03-10T12:00:00Z');

describe('accepted deviations', () => {
  const data = evaluateCompliance(baseline, client());
  const accept = (properties: string[], extra: object = {}) =>
    acceptDeviations(
      emptyAcceptedDeviations('ABC', DAY),
      {
        path: PATH,
        policyName: 'Authorization Policy',
        category: 'AzureAD',
        properties,
        acceptedBy: 'alex.morgan@aegis-msp.example',
        acceptedValues: { allowInvitesFrom: 'everyone', guestUserRoleId: 'b' },
        ...extra,
      },
      DAY,
    );

  it('keeps the spec shape with who accepted, why and until when', () => {
    const cfg = accept(['allowInvitesFrom'], {
      reason: '  Guests invite partners ',
      expiresAt: '2026-06-30',
    });
    expect(cfg.version).toBe('1.0');
    expect(cfg.clientCode).toBe('ABC');
    const [entry] = cfg.acceptedDeviations;
    expect(entry).toMatchObject({
      path: PATH,
      policyName: 'Authorization Policy',
      category: 'AzureAD',
      properties: ['allowInvitesFrom'],
      timestamp: DAY.toISOString(),
      acceptedBy: 'alex.morgan@aegis-msp.example',
      reason: 'Guests invite partners',
      expiresAt: '2026-06-30',
    });
    expect(acceptedMessage(2, 'Authorization Policy')).toBe(
      'Successfully accepted 2 deviation(s) for Authorization Policy',
    );
  });

  it("records 'user' when no account is known, and no empty reason", () => {
    const cfg = acceptDeviations(emptyAcceptedDeviations('ABC'), {
      path: 'p',
      policyName: 'n',
      category: 'c',
      properties: ['a'],
      reason: '   ',
    });
    expect(cfg.acceptedDeviations[0]?.acceptedBy).toBe('user');
    expect(cfg.acceptedDeviations[0]).not.toHaveProperty('reason');
  });

  it('an accepted property no longer counts; the rest of the policy still deviates', () => {
    expect(data.deviations).toHaveLength(1);
    expect(data.compliancePercentage).toBe(50);
    const applied = applyAcceptedDeviations(data, accept(['allowInvitesFrom']), DAY);
    expect(applied.deviations[0]?.deviations.map((d) => d.property)).toEqual(['guestUserRoleId']);
    expect(applied.acceptedDeviationsCount).toBe(1);
    expect(applied.acceptedGroups?.[0]?.deviations.map((d) => d.property)).toEqual([
      'allowInvitesFrom',
    ]);
    expect(applied.compliancePercentage).toBe(50);
  });

  it('a policy whose deviations are all accepted becomes compliant and is listed as accepted', () => {
    const applied = applyAcceptedDeviations(
      data,
      accept(['allowInvitesFrom', 'guestUserRoleId']),
      DAY,
    );
    expect(applied.deviations).toHaveLength(0);
    expect(applied.compliancePercentage).toBe(100);
    expect(applied.acceptedGroups?.[0]).toMatchObject({
      path: PATH,
      acceptedBy: 'alex.morgan@aegis-msp.example',
      acceptedAt: DAY.toISOString(),
    });
  });

  it("flags 'accepted value changed' when the client's value moves away from the accepted one", () => {
    const moved = evaluateCompliance(
      baseline,
      client({ allowInvitesFrom: 'adminsGuestInvitersAndAllMembers' }),
    );
    const applied = applyAcceptedDeviations(
      moved,
      accept(['allowInvitesFrom', 'guestUserRoleId']),
      DAY,
    );
    expect(applied.deviations).toHaveLength(1);
    const [d] = applied.deviations[0]?.deviations ?? [];
    expect(d?.property).toBe('allowInvitesFrom');
    expect(d?.acceptance).toMatchObject({ status: 'valueChanged', acceptedValue: 'everyone' });
    expect(applied.acceptedDeviationsCount).toBe(1);
  });

  it("holds on its last day and flags 'acceptance expired' the day after", () => {
    const cfg = accept(['allowInvitesFrom', 'guestUserRoleId'], { expiresAt: '2026-03-10' });
    const entry = cfg.acceptedDeviations[0]!;
    expect(isAcceptanceExpired(entry, new Date('2026-03-10T23:59:59Z'))).toBe(false);
    expect(isAcceptanceExpired(entry, new Date('2026-03-11T00:00:00Z'))).toBe(true);
    expect(isAcceptanceExpired({}, new Date('2100-01-01'))).toBe(false);
    const later = applyAcceptedDeviations(data, cfg, new Date('2026-03-11T08:00:00Z'));
    expect(later.deviations[0]?.deviations.map((d) => d.acceptance?.status)).toEqual([
      'expired',
      'expired',
    ]);
    expect(later.acceptedGroups).toEqual([]);
    expect(later.acceptedDeviationsApplied).toBe(false);
  });

  it('an entry without accepted values (the spec shape) is accepted whatever the value', () => {
    const cfg = acceptDeviations(emptyAcceptedDeviations('ABC'), {
      path: PATH,
      policyName: 'x',
      category: 'AzureAD',
      properties: ['guestUserRoleId'],
    });
    expect(
      acceptanceStatus(
        cfg.acceptedDeviations[0]!,
        { property: 'guestUserRoleId', clientValue: 'z' },
        DAY,
      ),
    ).toBe('accepted');
    expect(
      acceptanceStatus(cfg.acceptedDeviations[0]!, { property: 'other', clientValue: 'z' }, DAY),
    ).toBe('notAccepted');
  });

  it('accepting more on the same path replaces the entry and keeps the earlier accepted properties in force', () => {
    let cfg = accept(['allowInvitesFrom']);
    cfg = acceptDeviations(
      cfg,
      {
        path: PATH,
        policyName: 'Authorization Policy',
        category: 'AzureAD',
        properties: ['guestUserRoleId'],
        acceptedBy: 'sam.lee@aegis-msp.example',
        acceptedValues: { guestUserRoleId: 'b' },
      },
      DAY,
    );
    expect(cfg.acceptedDeviations).toHaveLength(1);
    expect(cfg.acceptedDeviations[0]?.properties).toEqual(['guestUserRoleId', 'allowInvitesFrom']);
    expect(cfg.acceptedDeviations[0]?.acceptedValues).toEqual({
      allowInvitesFrom: 'everyone',
      guestUserRoleId: 'b',
    });
    expect(cfg.acceptedDeviations[0]?.acceptedBy).toBe('sam.lee@aegis-msp.example');
  });

  it('an expired earlier entry is not carried into a new acceptance', () => {
    const old = accept(['allowInvitesFrom'], { expiresAt: '2026-03-01' });
    const cfg = acceptDeviations(
      old,
      { path: PATH, policyName: 'p', category: 'AzureAD', properties: ['guestUserRoleId'] },
      DAY,
    );
    expect(cfg.acceptedDeviations[0]?.properties).toEqual(['guestUserRoleId']);
  });

  it('other paths are kept, and a revocation removes one path only', () => {
    let cfg = accept(['allowInvitesFrom']);
    cfg = acceptDeviations(
      cfg,
      { path: 'other.json', policyName: 'o', category: 'c', properties: ['x'] },
      DAY,
    );
    expect(cfg.acceptedDeviations.map((d) => d.path)).toEqual([PATH, 'other.json']);
    expect(revokeAcceptedDeviations(cfg, PATH).acceptedDeviations.map((d) => d.path)).toEqual([
      'other.json',
    ]);
  });
});

describe('how long an acceptance may run (ADR 056)', () => {
  const now = new Date('2026-11-27T15:00:00Z');

  it('runs at most MAX_ACCEPTANCE_DAYS, which is also the expiry when none is given', () => {
    expect(MAX_ACCEPTANCE_DAYS).toBe(365);
    expect(latestAcceptanceExpiry(now)).toBe('2027-11-27');
  });

  it.each([
    ['2027-02-30', 'must be a real date (yyyy-mm-dd)'],
    ['2026-13-01', 'must be a real date (yyyy-mm-dd)'],
    ['2026-11-26', 'must not be in the past'],
    ['9999-12-31', 'must be no later than 2027-11-27: an acceptance runs at most 365 days'],
    ['2027-11-28', 'must be no later than 2027-11-27: an acceptance runs at most 365 days'],
  ])('refuses %s: %s', (expiresAt, problem) => {
    expect(acceptanceExpiryProblem(expiresAt, now)).toBe(problem);
  });

  it.each(['2026-11-27', '2027-02-28', '2027-11-27'])('accepts %s', (expiresAt) => {
    expect(acceptanceExpiryProblem(expiresAt, now)).toBeUndefined();
  });

  it('knows real calendar days', () => {
    expect(isRealIsoDay('2028-02-29')).toBe(true);
    expect(isRealIsoDay('2027-02-29')).toBe(false);
    expect(isRealIsoDay('27-02-2027')).toBe(false);
  });
});
