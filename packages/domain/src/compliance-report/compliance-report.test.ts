import { describe, expect, it } from 'vitest';

import { comparePolicy, type DeviationGroup } from '../comparison';
import type { Severity } from '../severity';

import {
  bannerProblem,
  BANNER_MAX_BYTES,
  baselineHeader,
  canExport,
  deviationsByCategory,
  exportBlocker,
  filterForExport,
  propertyPreview,
  severityFilterCounts,
  type ComplianceExportOptions,
} from './compliance-report';

const group = (category: string, severity: Severity, properties = ['a']): DeviationGroup => ({
  path: `${category}/x/${severity}.json`,
  policyName: `${category} ${severity}`,
  category,
  severity,
  highestSeverity: severity,
  deviationCount: properties.length,
  isMissing: false,
  isPrerequisite: severity === 'prerequisite',
  changeType: 'modified',
  baselinePolicy: {},
  clientPolicy: {},
  hasArrayChanges: false,
  deviations: properties.map((property) => ({
    property,
    baselineValue: 1,
    clientValue: 2,
    severity,
    isMissing: false,
    isPrerequisite: false,
    policyType: 'generic',
    change: 'modified',
    isArrayChange: false,
  })),
});

const groups = [
  group('Teams', 'low'),
  group('AzureAD', 'critical'),
  group('AzureAD', 'high'),
  group('Intune', 'medium'),
  group('Intune', 'prerequisite'),
];
const options = (o: Partial<ComplianceExportOptions> = {}): ComplianceExportOptions => ({
  includeSummary: true,
  includeCategoryBreakdown: true,
  includeDetailedDeviations: true,
  severityFilter: 'all',
  categories: ['AzureAD', 'Intune', 'Teams'],
  ...o,
});

describe('compliance report rules', () => {
  it('counts each severity filter', () => {
    expect(severityFilterCounts(groups)).toEqual({
      all: 5,
      criticalHigh: 2,
      critical: 1,
      high: 1,
      medium: 1,
    });
  });

  it('filters by severity and category', () => {
    expect(
      filterForExport(groups, options({ severityFilter: 'criticalHigh' })).map((g) => g.policyName),
    ).toEqual(['AzureAD critical', 'AzureAD high']);
    expect(
      filterForExport(groups, options({ categories: ['Intune'] })).map((g) => g.policyName),
    ).toEqual(['Intune medium', 'Intune prerequisite']);
    expect(filterForExport(groups, options({ categories: [] }))).toHaveLength(5);
    expect(
      filterForExport(groups, options({ severityFilter: 'medium', categories: [] })),
    ).toHaveLength(0);
  });

  it('allows export with a section and (a category or severity All)', () => {
    expect(canExport(options())).toBe(true);
    expect(
      canExport(
        options({
          includeSummary: false,
          includeCategoryBreakdown: false,
          includeDetailedDeviations: false,
        }),
      ),
    ).toBe(false);
    expect(canExport(options({ categories: [] }))).toBe(true);
    expect(canExport(options({ categories: [], severityFilter: 'critical' }))).toBe(false);
    expect(canExport(options({ includeSummary: false, includeCategoryBreakdown: false }))).toBe(
      true,
    );
  });

  it('gives the two toasts for no data and no deviations', () => {
    expect(exportBlocker(undefined)).toBe(
      'No compliance data available to export. Please run a comparison first.',
    );
    expect(exportBlocker({ deviations: [] } as never)).toBe(
      'No deviations found to export. This client is in perfect compliance!',
    );
    expect(exportBlocker({ deviations: groups } as never)).toBeUndefined();
  });

  it('accepts PNG and JPG up to 2 MB (2097152 bytes) only', () => {
    expect(BANNER_MAX_BYTES).toBe(2097152);
    expect(bannerProblem({ type: 'image/png', size: 2097152 })).toBeUndefined();
    expect(bannerProblem({ type: 'image/jpeg', size: 10 })).toBeUndefined();
    expect(bannerProblem({ type: 'image/png', size: 2097153 })).toBe(
      'Image size must be less than 2MB',
    );
    expect(bannerProblem({ type: 'image/gif', size: 10 })).toBe('Please upload a PNG or JPG image');
    expect(bannerProblem({ type: 'image/svg+xml', size: 10 })).toBe(
      'Please upload a PNG or JPG image',
    );
  });

  it('groups by category alphabetically with per-severity counts', () => {
    const cats = deviationsByCategory(groups);
    expect(cats.map((c) => c.category)).toEqual(['AzureAD', 'Intune', 'Teams']);
    expect(cats[1]?.counts).toEqual({ critical: 0, high: 0, medium: 1, low: 0, prerequisite: 1 });
  });

  it("previews the first 3 properties and '+N more properties...'", () => {
    expect(propertyPreview(group('A', 'low', ['a', 'b', 'c']))).toEqual({ shown: ['a', 'b', 'c'] });
    expect(propertyPreview(group('A', 'low', ['a', 'b', 'c', 'd', 'e']))).toEqual({
      shown: ['a', 'b', 'c'],
      more: '+2 more properties...',
    });
  });

  it('names the comparison in the header', () => {
    expect(baselineHeader('ABC')).toBe('Current state of ABC vs company baseline (main branch)');
  });
});

describe('Critical & High export of settings named in arrays (spec 3 §5)', () => {
  it('includes a group setting whose name contains password', () => {
    const settings = (value: string) => ({
      templateId: '5cf42378-d67d-4f36-ba46-e8b86229381d',
      values: [
        { name: 'EnableBannedPasswordCheckOnPremises', value },
        { name: 'BannedPasswordCheckOnPremisesMode', value: 'Audit' },
      ],
    });
    const path = 'M365Config/Resources/AzureAD/GroupSettings/Password Rule Settings.json';
    const group = comparePolicy(
      { path, content: settings('True') },
      { path, content: settings('False') },
    );
    expect(group?.deviations.map((d) => [d.property, d.severity])).toEqual([
      ['values[name=EnableBannedPasswordCheckOnPremises].value', 'critical'],
    ]);
    expect(
      filterForExport([group!], { severityFilter: 'criticalHigh', categories: ['AzureAD'] }),
    ).toHaveLength(1);
  });
});
