import { describe, expect, it } from 'vitest';

import { evaluateCompliance } from '../comparison';

import {
  buildCaptureManifest,
  captureManifestPath,
  isPartialCapture,
  notCapturedByReason,
  notCapturedOutcomeOf,
  notCapturedText,
  notCapturedWorkloads,
  parseCaptureManifest,
  partialApprovalRefusal,
  partitionByCapture,
  renderCaptureManifest,
  type CaptureManifest,
} from './manifest';

const AT = new Date('2026-11-27T05:00:00Z');

const manifest = (
  ...entries: Parameters<typeof buildCaptureManifest>[1] extends Iterable<infer E> ? E[] : never
): CaptureManifest => buildCaptureManifest(AT, entries);

const exchangeDenied = manifest(
  ['ConditionalAccess/Policy', { status: 'read', count: 3 }],
  [
    'Exchange/TransportRule',
    {
      status: 'notPermitted',
      permission: 'Exchange.ManageAsApp and the Exchange Administrator role',
    },
  ],
  ['Planner/PlannerConfiguration', { status: 'noPublicApi' }],
);

describe('capture manifest', () => {
  it('lives beside the capture metadata in the client folder', () => {
    expect(captureManifestPath('ABC')).toBe('/Clients/ABC/.capture-manifest.json');
  });

  it('round-trips through its file, sorted by workload', () => {
    const text = renderCaptureManifest(exchangeDenied);
    expect(parseCaptureManifest(text)).toEqual(exchangeDenied);
    expect(exchangeDenied.workloads.map((w) => w.workload)).toEqual([
      'ConditionalAccess/Policy',
      'Exchange/TransportRule',
      'Planner/PlannerConfiguration',
    ]);
    expect(exchangeDenied.capturedAt).toBe('2026-11-27T05:00:00.000Z');
  });

  it('refuses a file that is not a manifest rather than trusting part of it', () => {
    expect(parseCaptureManifest(undefined)).toBeUndefined();
    expect(parseCaptureManifest('not json')).toBeUndefined();
    expect(parseCaptureManifest('{"version":2,"capturedAt":"x","workloads":[]}')).toBeUndefined();
    const bad = JSON.stringify({
      version: 1,
      capturedAt: 'x',
      workloads: [{ workload: 'Exchange/TransportRule', status: 'failed' }],
    });
    expect(parseCaptureManifest(bad)).toBeUndefined();
    const unknownStatus = JSON.stringify({
      version: 1,
      capturedAt: 'x',
      workloads: [{ workload: 'Exchange/TransportRule', status: 'skipped' }],
    });
    expect(parseCaptureManifest(unknownStatus)).toBeUndefined();
  });

  it("says 'Not captured: {reason}' for each outcome", () => {
    expect(
      notCapturedText({ status: 'failed', httpStatus: 500, message: 'InternalServerError' }),
    ).toBe('Not captured: the service answered 500: InternalServerError');
    expect(notCapturedText({ status: 'failed', message: 'socket hang up' })).toBe(
      'Not captured: socket hang up',
    );
    expect(
      notCapturedText({
        status: 'notPermitted',
        permission: 'DeviceManagementConfiguration.ReadWrite.All',
      }),
    ).toBe('Not captured: the Aegis app lacks DeviceManagementConfiguration.ReadWrite.All');
    expect(notCapturedText({ status: 'notLicensed', message: 'Intune is not licensed' })).toBe(
      'Not captured: not licensed: Intune is not licensed',
    );
    expect(notCapturedText({ status: 'noPublicApi' })).toBe(
      'Not captured: Microsoft publishes no API for it',
    );
  });

  it('lists the workloads not read and finds them by policy path', () => {
    expect(notCapturedWorkloads(exchangeDenied).map((w) => w.workload)).toEqual([
      'Exchange/TransportRule',
      'Planner/PlannerConfiguration',
    ]);
    expect(
      notCapturedOutcomeOf(
        exchangeDenied,
        'Clients/ABC/M365Config/Resources/Exchange/TransportRule/Block.json',
      )?.status,
    ).toBe('notPermitted');
    expect(notCapturedOutcomeOf(exchangeDenied, 'exchange/transportrule/Block.json')).toBeDefined();
    expect(
      notCapturedOutcomeOf(exchangeDenied, 'ConditionalAccess/Policy/CA1.json'),
    ).toBeUndefined();
    expect(notCapturedOutcomeOf(undefined, 'Exchange/TransportRule/Block.json')).toBeUndefined();
    const { captured, notCaptured } = partitionByCapture(
      exchangeDenied,
      ['ConditionalAccess/Policy/CA1.json', 'Exchange/TransportRule/Block.json'],
      (p) => p,
    );
    expect(captured).toEqual(['ConditionalAccess/Policy/CA1.json']);
    expect(notCaptured).toEqual(['Exchange/TransportRule/Block.json']);
  });

  it('names each reason once, with the workloads it kept out, in first-seen order', () => {
    const refused = 'Not captured: the service answered 500: InternalServerError';
    expect(
      notCapturedByReason([
        { workload: 'Exchange/TransportRule', text: refused },
        { workload: 'Planner/PlannerConfiguration', text: 'Not captured: no API' },
        { workload: 'Exchange/RemoteDomain', text: refused },
      ]),
    ).toEqual([
      { text: refused, workloads: ['Exchange/TransportRule', 'Exchange/RemoteDomain'] },
      { text: 'Not captured: no API', workloads: ['Planner/PlannerConfiguration'] },
    ]);
    expect(notCapturedByReason([])).toEqual([]);
  });

  it('is partial only when a workload the tenant has failed or was not permitted', () => {
    expect(isPartialCapture(exchangeDenied)).toBe(true);
    expect(isPartialCapture(undefined)).toBe(false);
    const permanent = manifest(
      ['Planner/PlannerConfiguration', { status: 'noPublicApi' }],
      ['Intune/DeviceConfiguration', { status: 'notLicensed', message: 'no Intune licence' }],
    );
    expect(isPartialCapture(permanent)).toBe(false);
    const failed = manifest([
      'Intune/ConfigurationPolicy',
      { status: 'failed', httpStatus: 500, message: 'x' },
    ]);
    expect(isPartialCapture(failed)).toBe(true);
  });

  it('approves a partial capture only with a comment that says so', () => {
    const refusal = partialApprovalRefusal(exchangeDenied, 'Looks good');
    expect(refusal).toMatch(/partial \(not captured: Exchange\/TransportRule\)/);
    expect(refusal).not.toMatch(/Planner/);
    expect(partialApprovalRefusal(exchangeDenied, undefined)).toBe(refusal);
    expect(partialApprovalRefusal(exchangeDenied, 'Partial: Exchange to follow')).toBeUndefined();
    expect(
      partialApprovalRefusal(exchangeDenied, 'Exchange not captured, rest reviewed'),
    ).toBeUndefined();
    // 'impartial' is not 'partial'
    expect(partialApprovalRefusal(exchangeDenied, 'impartial review')).toBeDefined();
    expect(partialApprovalRefusal(undefined, '')).toBeUndefined();
  });

  it('leaves the policies of a workload not read out of compliance and reports it apart', () => {
    const baseline = [
      { path: 'ConditionalAccess/Policy/CA1.json', content: { state: 'enabled' } },
      { path: 'Exchange/TransportRule/Block.json', content: { State: 'Enabled' } },
    ];
    // the client's Exchange file is stale (left as it was): without the manifest it is a deviation
    const client = [
      { path: 'ConditionalAccess/Policy/CA1.json', content: { state: 'enabled' } },
      { path: 'Exchange/TransportRule/Block.json', content: { State: 'Disabled' } },
    ];
    expect(evaluateCompliance(baseline, client).deviationCount).toBe(1);
    const result = evaluateCompliance(baseline, client, { manifest: exchangeDenied });
    expect(result.deviationCount).toBe(0);
    expect(result.totalCount).toBe(1);
    expect(result.compliancePercentage).toBe(100);
    expect(result.notCaptured?.map((w) => w.text)).toContain(
      'Not captured: the Aegis app lacks Exchange.ManageAsApp and the Exchange Administrator role',
    );
    // a missing client file of a workload not read is not a missing policy either
    const missing = evaluateCompliance(baseline, client.slice(0, 1), { manifest: exchangeDenied });
    expect(missing.missingPoliciesCount).toBe(0);
  });
});
