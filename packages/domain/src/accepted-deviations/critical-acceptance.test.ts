import { describe, expect, it } from 'vitest';

import { emptyAcceptedDeviations } from './accepted-deviations';
import {
  approveAcceptance,
  needsSecondApprover,
  rejectAcceptance,
  requestAcceptance,
} from './critical-acceptance';

const NOW = new Date('2026-11-27T10:00:00Z');
const PRIYA = 'priya.shah@aegis-msp.example';
const ALEX = 'alex.morgan@aegis-msp.example';
const action = {
  path: 'AzureAD/AuthorizationPolicy/Authorization Policy.json',
  policyName: 'Authorization Policy',
  category: 'AzureAD',
  properties: ['passwordPolicy', 'passwordPolicy'],
  reason: 'Agreed with the client CISO',
  acceptedValues: { passwordPolicy: 'legacy' },
  requestedBy: PRIYA,
};

describe('critical acceptance', () => {
  it('needs a second Approver when any accepted property deviates critically', () => {
    const severities: Record<string, 'critical' | 'low'> = { password: 'critical', colour: 'low' };
    expect(needsSecondApprover(['colour', 'password'], (p) => severities[p])).toBe(true);
    expect(needsSecondApprover(['colour'], (p) => severities[p])).toBe(false);
  });

  it('waits as a request, then becomes an acceptance by who asked, approved by another', () => {
    const requested = requestAcceptance(emptyAcceptedDeviations('FAB', NOW), action, NOW);
    expect(requested.acceptedDeviations).toEqual([]);
    expect(requested.pendingAcceptances).toEqual([
      expect.objectContaining({
        path: action.path,
        properties: ['passwordPolicy'],
        requestedBy: PRIYA,
      }),
    ]);
    const approved = approveAcceptance(requested, action.path, ALEX, NOW);
    expect(approved.pendingAcceptances).toEqual([]);
    expect(approved.acceptedDeviations).toEqual([
      expect.objectContaining({
        path: action.path,
        properties: ['passwordPolicy'],
        acceptedBy: PRIYA,
        approvedBy: ALEX,
        reason: 'Agreed with the client CISO',
        acceptedValues: { passwordPolicy: 'legacy' },
      }),
    ]);
  });

  it('is never approved or rejected by who asked', () => {
    const requested = requestAcceptance(emptyAcceptedDeviations('FAB', NOW), action, NOW);
    expect(() =>
      approveAcceptance(requested, action.path, ' Priya.Shah@aegis-msp.example', NOW),
    ).toThrow(
      'You asked for this acceptance, so another Approver must approve it (four-eyes rule).',
    );
    expect(() => rejectAcceptance(requested, action.path, PRIYA, NOW)).toThrow(
      /another Approver must reject/,
    );
  });

  it('a rejection removes the request and accepts nothing; an unknown request is not found', () => {
    const requested = requestAcceptance(emptyAcceptedDeviations('FAB', NOW), action, NOW);
    const rejected = rejectAcceptance(requested, action.path, ALEX, NOW);
    expect(rejected.pendingAcceptances).toEqual([]);
    expect(rejected.acceptedDeviations).toEqual([]);
    expect(() => approveAcceptance(rejected, action.path, ALEX, NOW)).toThrow(
      /No acceptance of .* is waiting for approval/,
    );
  });
});
