import {
  runStandardBaseline,
  type ComparisonResults,
  type StandardCategory,
  type StandardCheck,
} from '@aegis/domain';
import { describe, expect, it } from 'vitest';

import { fromComparisonResults, fromStandardBaseline } from './adapters';

const meta = {
  clientName: 'ABC',
  generatedBy: { upn: 'tech@msp.example' },
  options: { failedOnly: false },
  generatedAt: new Date(2025, 0, 2),
};

describe('fromComparisonResults', () => {
  it('maps the engine rows and counts policies per area', () => {
    const results: ComparisonResults = {
      AzureAD: {
        AuthorizationPolicy: [
          { Path: 'a', RefValue: true, DiffValue: true, Equal: true, Description: '' },
          { Path: 'b', RefValue: 1, DiffValue: 'Missing', Equal: false, Description: '' },
        ],
        Other: [{ Path: 'c', RefValue: 'x', DiffValue: 'x', Equal: true, Description: '' }],
      },
      Teams: {
        Meeting: [{ Path: 'd', RefValue: '', DiffValue: '', Equal: true, Description: '' }],
      },
    };
    const input = fromComparisonResults(results, [], meta);
    expect(input.baselineType).toBe('options');
    expect(input.findings[0]?.policies[0]?.rows[1]).toEqual({
      setting: 'b',
      expected: 1,
      current: 'Missing',
      pass: false,
    });
    expect(input.categories).toEqual([
      { name: 'AzureAD', passing: 1, failing: 1, percentage: 50 },
      { name: 'Teams', passing: 1, failing: 0, percentage: 100 },
    ]);
    expect(input.totals).toEqual({ score: 67, passed: 2, failed: 1 });
  });
});

describe('fromStandardBaseline', () => {
  const check = (id: string, category: StandardCategory, pass: boolean): StandardCheck => ({
    id,
    title: `Title ${id}`,
    description: `Description ${id}`,
    category,
    severity: 'high',
    rationale: '',
    controlReference: '',
    evaluate: () => ({ expected: 'Enabled', current: pass ? 'Enabled' : 'Disabled', pass }),
  });

  it('makes one policy per check, areas in the standard order, totals from the result', () => {
    const result = runStandardBaseline([], undefined, [
      check('EXC.1001', 'Exchange Security', false),
      check('MT.1001', 'Conditional Access', true),
      check('AD.2001', 'Azure AD Settings', false),
    ]);
    const input = fromStandardBaseline(result, [], meta);
    expect(input.baselineType).toBe('standard');
    expect(input.findings.map((c) => c.name)).toEqual([
      'Conditional Access',
      'Azure AD Settings',
      'Exchange Security',
    ]);
    expect(input.findings[0]?.policies[0]).toEqual({
      name: 'MT.1001 Title MT.1001',
      rows: [
        { setting: 'Description MT.1001', expected: 'Enabled', current: 'Enabled', pass: true },
      ],
    });
    expect(input.totals).toEqual({ score: 33, passed: 1, failed: 2 });
    expect(input.categories.map((c) => c.percentage)).toEqual([100, 0, 0]);
  });

  it('reports the whole catalogue', () => {
    const result = runStandardBaseline([]);
    const input = fromStandardBaseline(result, [], meta);
    expect(input.findings.flatMap((c) => c.policies)).toHaveLength(result.total);
    expect(input.totals.passed + input.totals.failed).toBe(result.total);
  });
});
