import { parseReportPeriod, periodsEndingWith } from '@aegis/domain';

import type { CustomerReportInput } from './types';

/** A 120×36 PNG standing in for an MSP's logo. */
export const SAMPLE_PNG_LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAHgAAAAkCAIAAADNSmkJAAAAnUlEQVR42u3auQ2AMBAEQFdCE5RA/wVQDWSIBPxiC5iVQwenCfcubNIlAQHoX0Kvy3T/UNZCR4lx10JnEeMuhC5WZp0BXanMOgm6iTLrCHRDZdagR0M3V2YNehz0Q8pn6/k6xxhf/QMaNGjQoEGDBg0aNGjQoEHrOpRK+mjKoO0MQduCj4N219EP2qVSP+gCbqDl0IncKNtAC+h3ZAfFaIHc+avWhAAAAABJRU5ErkJggg==';

/**
 * A customer report's facts for tests and the benchmark: `deviations` policies deviating, spread
 * over the severities, and `logo` as given.
 */
export function sampleCustomerReportInput(
  options: { deviations?: number; logo?: string | Uint8Array } = {},
): CustomerReportInput {
  const period = parseReportPeriod('2026-10');
  const deviations = Array.from({ length: options.deviations ?? 12 }, (_, i) => ({
    policyName: `Policy ${String(i + 1).padStart(3, '0')} ${i % 2 ? 'Conditional Access' : 'Device compliance'}`,
    category: i % 2 ? 'ConditionalAccess' : 'Intune',
    severity: (['critical', 'high', 'medium', 'low', 'prerequisite'] as const)[i % 5]!,
    isMissing: i % 3 === 0,
    deviationCount: (i % 4) + 1,
  }));
  return {
    branding: {
      mspName: 'Northwind Managed Services',
      ...(options.logo !== undefined ? { logo: options.logo } : {}),
      primaryColour: '#0F4C81',
      contactEmail: 'service@northwind.example',
      contactPhone: '+44 20 7946 0000',
      website: 'northwind.example',
      supportMessage: 'Our service desk answers every working day from 08:00 to 18:00.',
    },
    customerName: 'Fabrikam Ltd',
    clientCode: 'FAB',
    period,
    generatedAt: new Date(Date.UTC(2026, 10, 5, 9)),
    introduction:
      'Dear Fabrikam team,\n\nthis is your monthly report on the security and configuration of Microsoft 365.',
    compliance: {
      percentage: 83,
      totalCount: 120,
      compliantCount: 100,
      deviationCount: deviations.length,
      acceptedCount: 2,
      counts: { critical: 3, high: 3, medium: 2, low: 2, prerequisite: 2 },
    },
    standard: { percentage: 71, passed: 17, total: 24 },
    trend: periodsEndingWith(period, 6).map((p, i) => ({
      periodLabel: p.label,
      compliancePercentage: i === 0 ? null : 70 + i * 2,
      standardPercentage: 60 + i * 2,
    })),
    previous: { compliancePercentage: 78, standardPercentage: 71 },
    deviations,
    exceptions: [
      {
        policyName: 'CA010 Block legacy authentication',
        properties: ['conditions.users.excludeUsers'],
        reason: 'Scanner account until the printer is replaced',
        acceptedBy: 'jamie@northwind.example',
        approvedBy: 'sam@northwind.example',
        expiresAt: '2026-12-31',
      },
    ],
    changes: [
      {
        date: '2026-10-03T10:00:00Z',
        kind: 'Configuration captured',
        description: 'Capture 41 merged: 3 policies updated',
      },
      {
        date: '2026-10-17T14:30:00Z',
        kind: 'Baseline deployed',
        description: 'Conditional Access components',
      },
    ],
    backups: {
      health: 'Healthy',
      restorePoints: [
        { date: '2026-10-31T02:00:00Z', name: 'backup/FAB/daily_20261031_020000' },
        { date: '2026-10-30T02:00:00Z', name: 'backup/FAB/daily_20261030_020000' },
      ],
    },
    openItems: { reviewsWaiting: 1, approvalsWaiting: 0, details: [] },
    notCaptured: [],
  };
}
