import { describe, expect, it } from 'vitest';

import {
  capturersOf,
  isAegisMainWritePath,
  mayApproveCapture,
  REQUIRED_REVIEWER_POLICY,
  reviewerPolicyGaps,
} from './four-eyes';

describe('reviewerPolicyGaps', () => {
  const required = { isEnabled: true, isBlocking: true, settings: { ...REQUIRED_REVIEWER_POLICY } };

  it('finds nothing missing in the required policy, nor in a stricter one', () => {
    expect(reviewerPolicyGaps(required)).toEqual([]);
    expect(
      reviewerPolicyGaps({
        ...required,
        settings: { ...required.settings, minimumApproverCount: 2 },
      }),
    ).toEqual([]);
  });

  it('names each setting that lets one person change main alone', () => {
    expect(
      reviewerPolicyGaps({
        isEnabled: false,
        isBlocking: false,
        settings: { minimumApproverCount: 0, creatorVoteCounts: true },
      }),
    ).toEqual([
      'the policy is disabled',
      'the policy is optional, not required',
      'no minimum number of approvers',
      "the creator's own vote counts",
      'votes are not reset when the source changes',
      'the last pusher may approve',
    ]);
  });
});

describe('isAegisMainWritePath', () => {
  it.each([
    '/Clients/ABC/.accepted-deviations.json',
    'Clients/ABC/.matching-config.json',
    '/Client_Yaml_Files/ABC-azure-pipelines.yml',
  ])('lets Aegis write %s', (path) => expect(isAegisMainWritePath(path)).toBe(true));

  it.each([
    '/M365Config/Resources/Intune/DeviceCompliancePolicy/Baseline.json',
    '/Clients/ABC/M365Config/Resources/Exchange/TransportRule/Rule.json',
    '/Clients/ABC/.capture-metadata.json',
    '/Clients/abc/.accepted-deviations.json',
    '/Clients/ABC/../XYZ/.accepted-deviations.json',
    '/Clients/ABC/sub/.accepted-deviations.json',
    '/pipelines/capture.yml',
  ])('refuses %s', (path) => expect(isAegisMainWritePath(path)).toBe(false));
});

describe('mayApproveCapture', () => {
  const run = {
    requestedBy: { uniqueName: 'Sam.Taylor@aegis-msp.example' },
    requestedFor: { uniqueName: 'sam.taylor@aegis-msp.example' },
  };

  it('lets another person approve', () => {
    expect(mayApproveCapture('priya.shah@aegis-msp.example', run)).toBe(true);
  });

  it('refuses the requester, in any case and with blanks', () => {
    expect(mayApproveCapture(' SAM.TAYLOR@aegis-msp.example ', run)).toBe(false);
  });

  it('refuses the one the run was requested for even when someone else queued it', () => {
    const queuedForPriya = {
      requestedBy: { uniqueName: 'sam.taylor@aegis-msp.example' },
      requestedFor: { uniqueName: 'priya.shah@aegis-msp.example' },
    };
    expect(mayApproveCapture('priya.shah@aegis-msp.example', queuedForPriya)).toBe(false);
    expect(capturersOf(queuedForPriya)).toHaveLength(2);
  });

  it('fails closed when the run names no requester or the approver is unknown', () => {
    expect(mayApproveCapture('priya.shah@aegis-msp.example', {})).toBe(false);
    expect(mayApproveCapture('', run)).toBe(false);
  });
});
