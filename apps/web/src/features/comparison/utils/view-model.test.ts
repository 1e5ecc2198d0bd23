import type { OptionsComparisonResult, StandardComparisonResult } from '@aegis/contracts';
import { describe, expect, it } from 'vitest';

import { filterCategories, progressMessage, toView } from './view-model';

const options: OptionsComparisonResult = {
  baselineType: 'options',
  client: 'ABC',
  baselineTreeId: 'b',
  clientTreeId: 'c',
  warnings: [],
  notCaptured: [],
  policyPaths: {
    AzureAD: { a: 'AzureAD/X/a.json', b: 'AzureAD/X/b.json' },
    Teams: { t: 'Teams/t.json' },
  },
  rows: {
    Teams: { t: [{ Path: 'x', RefValue: 1, DiffValue: 1, Equal: true, Description: '' }] },
    AzureAD: {
      a: [
        { Path: 'p', RefValue: true, DiffValue: true, Equal: true, Description: '' },
        { Path: 'q', RefValue: 1, DiffValue: 2, Equal: false, Description: '' },
      ],
      b: [{ Path: 'r', RefValue: 1, DiffValue: 1, Equal: true, Description: '' }],
    },
  },
};

describe('comparison view model', () => {
  it('counts policies per area: a policy passes only when all its rows do', () => {
    const view = toView(options);
    expect(view.categories.map((c) => [c.name, c.passing, c.failing, c.status])).toEqual([
      ['AzureAD', 1, 1, 'Mixed'],
      ['Teams', 1, 0, 'All Pass'],
    ]);
    expect([view.passed, view.failed, view.score]).toEqual([2, 1, 67]);
    expect(view.categories[0]?.policies[0]?.path).toBe('AzureAD/X/a.json');
  });

  it('names the layer a policy comes from, and none for the company baseline', () => {
    const view = toView({ ...options, policyLayers: { AzureAD: { b: 'Healthcare' } } });
    const policies = view.categories[0]?.policies ?? [];
    expect(policies.map((p) => [p.name, p.layer])).toEqual([
      ['a', undefined],
      ['b', 'Healthcare'],
    ]);
  });

  it('filters by status, only-fails rows and category search', () => {
    const { categories } = toView(options);
    const fails = filterCategories(categories, { filter: 'all', onlyFails: true, search: '' });
    expect(fails.map((c) => c.name)).toEqual(['AzureAD']);
    expect(fails[0]?.policies[0]?.rows.map((r) => r.setting)).toEqual(['q']);
    const passed = filterCategories(categories, { filter: 'passed', onlyFails: false, search: '' });
    expect(passed.flatMap((c) => c.policies.map((p) => p.name))).toEqual(['b', 't']);
    const search = filterCategories(categories, { filter: 'all', onlyFails: false, search: 'tea' });
    expect(search.map((c) => c.name)).toEqual(['Teams']);
  });

  it("narrows with both the toggle and the filter: 'Show Only Fails' with 'passed' shows nothing", () => {
    const { categories } = toView(options);
    const both = filterCategories(categories, { filter: 'passed', onlyFails: true, search: '' });
    expect(both).toEqual([]);
    const failed = filterCategories(categories, { filter: 'failed', onlyFails: false, search: '' });
    expect(failed.flatMap((c) => c.policies.map((p) => p.name))).toEqual(['a']);
    // 'failed' alone keeps a failing policy's passing rows; the toggle drops them
    expect(failed[0]?.policies[0]?.rows.map((r) => r.setting)).toEqual(['p', 'q']);
  });

  it('shows the standard checks in the standard category order with the result score', () => {
    const check = (id: string, category: string, pass: boolean) => ({
      id,
      title: `title ${id}`,
      description: `desc ${id}`,
      category,
      severity: 'high' as const,
      rationale: 'why',
      controlReference: 'ref',
      expected: 'On',
      current: pass ? 'On' : 'Missing',
      pass,
      evaluated: pass,
    });
    const standard: StandardComparisonResult = {
      baselineType: 'standard',
      client: 'ABC',
      clientTreeId: 'c',
      results: [
        check('EXC.1001', 'Exchange Security', true),
        check('MT.1001', 'Conditional Access', false),
      ],
      total: 2,
      passed: 1,
      failed: 1,
      percentage: 50,
      evaluatedCount: 1,
      notCaptured: [],
    };
    const view = toView(standard);
    expect(view.categories.map((c) => c.name)).toEqual(['Conditional Access', 'Exchange Security']);
    expect(view.categories[0]?.policies[0]?.name).toBe('MT.1001 title MT.1001');
    expect(view.score).toBe(50);
  });

  it('names the progress by percentage', () => {
    expect([0, 24, 25, 49, 50, 74, 75, 99, 100].map(progressMessage)).toEqual([
      'Initialising comparison...',
      'Initialising comparison...',
      'Fetching configuration files...',
      'Fetching configuration files...',
      'Analysing policies...',
      'Analysing policies...',
      'Finalising results...',
      'Finalising results...',
      'Complete!',
    ]);
  });
});
