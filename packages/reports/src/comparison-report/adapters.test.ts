import type { ComparisonResults } from '@aegis/domain';
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
    const input = fromComparisonResults(results, meta);
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
  it('makes one policy per check, areas in the standard order', () => {
    const check = (id: string, category: string, pass: boolean) => ({
      id,
      title: `Title ${id}`,
      description: `Description ${id}`,
      category,
      expected: 'Enabled',
      current: pass ? 'Enabled' : 'Missing',
      pass,
    });
    const input = fromStandardBaseline(
      {
        results: [
          check('EXC.1001', 'Exchange Security', false),
          check('MT.1001', 'Conditional Access', true),
          check('AD.2001', 'Azure AD Settings', false),
        ],
      },
      meta,
    );
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
  });
});
