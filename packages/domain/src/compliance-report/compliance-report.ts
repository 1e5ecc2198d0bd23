import type { ComplianceData, ComplianceSummary, DeviationSummary } from '../comparison/types';
import { SEVERITY_ORDER, type Severity } from '../severity';

/** Compliance data without the policy documents, as the report is sent and shown. */
export function complianceSummary(data: ComplianceData): ComplianceSummary {
  return {
    ...data,
    deviations: data.deviations.map(
      ({
        baselinePolicy: _baseline,
        clientPolicy: _client,
        conditions: _conditions,
        grantControls: _grant,
        sessionControls: _session,
        state: _state,
        ...summary
      }) => summary,
    ),
    clientOnlyPolicies: data.clientOnlyPolicies.map(
      ({ clientPolicy: _policy, ...summary }) => summary,
    ),
  };
}

/** Severity filter of the export modal (spec 3 §3). */
export const EXPORT_SEVERITY_FILTERS = [
  'all',
  'criticalHigh',
  'critical',
  'high',
  'medium',
] as const;
export type ExportSeverityFilter = (typeof EXPORT_SEVERITY_FILTERS)[number];

/** Radio labels of the severity filter (spec 3 §2). */
export const EXPORT_SEVERITY_LABELS: Record<ExportSeverityFilter, string> = {
  all: 'All',
  criticalHigh: 'Critical & High Only',
  critical: 'Critical Only',
  high: 'High Only',
  medium: 'Medium Only',
};

/** Export options (spec 3 §3). */
export interface ComplianceExportOptions {
  includeSummary: boolean;
  includeCategoryBreakdown: boolean;
  includeDetailedDeviations: boolean;
  severityFilter: ExportSeverityFilter;
  categories: string[];
}

const SEVERITIES_OF: Record<ExportSeverityFilter, readonly Severity[]> = {
  all: SEVERITY_ORDER,
  criticalHigh: ['critical', 'high'],
  critical: ['critical'],
  high: ['high'],
  medium: ['medium'],
};

/** Does a deviation group pass the severity filter (by its highest severity)? */
export function matchesSeverityFilter(
  group: DeviationSummary,
  filter: ExportSeverityFilter,
): boolean {
  return SEVERITIES_OF[filter].includes(group.highestSeverity);
}

/** How many deviation groups each severity filter keeps (the counts beside the radios). */
export function severityFilterCounts(
  groups: readonly DeviationSummary[],
): Record<ExportSeverityFilter, number> {
  const counts = { all: 0, criticalHigh: 0, critical: 0, high: 0, medium: 0 };
  for (const g of groups)
    for (const f of EXPORT_SEVERITY_FILTERS) if (matchesSeverityFilter(g, f)) counts[f]++;
  return counts;
}

/**
 * The deviation groups an export includes: those passing the severity filter, in the chosen categories. With the
 * severity filter All and no category chosen every group is kept (spec 3 §5 allows that export).
 */
export function filterForExport<G extends DeviationSummary>(
  groups: readonly G[],
  options: Pick<ComplianceExportOptions, 'severityFilter' | 'categories'>,
): G[] {
  const all = options.severityFilter === 'all' && options.categories.length === 0;
  const chosen = new Set(options.categories);
  return groups.filter(
    (g) => matchesSeverityFilter(g, options.severityFilter) && (all || chosen.has(g.category)),
  );
}

/** Export is allowed with at least one section ticked and (a category chosen or the severity filter All). */
export function canExport(options: ComplianceExportOptions): boolean {
  const section =
    options.includeSummary || options.includeCategoryBreakdown || options.includeDetailedDeviations;
  return section && (options.categories.length > 0 || options.severityFilter === 'all');
}

/** Toasts of the export (spec 3 §5, §8). */
export const EXPORT_MESSAGES = {
  noData: 'No compliance data available to export. Please run a comparison first.',
  noDeviations: 'No deviations found to export. This client is in perfect compliance!',
  failed: 'Failed to export PDF. Please try again.',
  exported: (file: string) => `Successfully exported: ${file}`,
} as const;

/** Why an export cannot start, as the spec's toast; undefined when it can. */
export function exportBlocker(data: ComplianceSummary | undefined): string | undefined {
  if (!data) return EXPORT_MESSAGES.noData;
  if (data.deviations.length === 0) return EXPORT_MESSAGES.noDeviations;
  return undefined;
}

/** The modal closes 1.5 s after a successful export (spec 3 §9). */
export const EXPORT_CLOSE_DELAY_MS = 1500;

/** Banner upload rules (spec 3 §5, §9). */
export const BANNER_MAX_BYTES = 2_097_152;
export const BANNER_TYPES = ['image/png', 'image/jpeg'] as const;
export const BANNER_STORAGE_KEY = 'companyBanner';
export const BANNER_MESSAGES = {
  type: 'Please upload a PNG or JPG image',
  size: 'Image size must be less than 2MB',
} as const;

/** The banner's problem, as the spec's text; undefined when it is acceptable. */
export function bannerProblem(file: { type: string; size: number }): string | undefined {
  if (!(BANNER_TYPES as readonly string[]).includes(file.type)) return BANNER_MESSAGES.type;
  if (file.size > BANNER_MAX_BYTES) return BANNER_MESSAGES.size;
  return undefined;
}

/** Per-category counts of the 'Policy Deviations by Service Area' list (spec 3 §2). */
export interface CategorySummary {
  category: string;
  groups: DeviationSummary[];
  counts: Record<Severity, number>;
}

/** Groups by category, categories sorted alphabetically, each with its severity counts. */
export function deviationsByCategory(groups: readonly DeviationSummary[]): CategorySummary[] {
  const byCategory = new Map<string, DeviationSummary[]>();
  for (const g of groups) {
    const list = byCategory.get(g.category);
    if (list) list.push(g);
    else byCategory.set(g.category, [g]);
  }
  return [...byCategory.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([category, list]) => {
      const counts = { critical: 0, high: 0, medium: 0, low: 0, prerequisite: 0 };
      for (const g of list) counts[g.highestSeverity]++;
      return { category, groups: list, counts };
    });
}

/** Preview of a deviation item: the first 3 properties, and '+N more properties...' (spec 3 §2). */
export function propertyPreview(group: DeviationSummary): { shown: string[]; more?: string } {
  const names = group.deviations.map((d) => d.property);
  const shown = names.slice(0, 3);
  const rest = names.length - shown.length;
  return rest > 0 ? { shown, more: `+${rest} more properties...` } : { shown };
}

/** Header of the baseline view (spec 3 §2). */
export function baselineHeader(client: string, branch = 'main'): string {
  return branch === 'main'
    ? `Current state of ${client} vs company baseline (main branch)`
    : `Capture ${branch} of ${client} vs company baseline (main branch)`;
}

/** Texts of the baseline view (spec 3 §2, §8). */
export const BASELINE_VIEW_TEXTS = {
  loading: 'Analysing baseline compliance...',
  perfectTitle: 'Perfect Compliance!',
  perfectBody: 'All policies match the company baseline configuration.',
  failedTitle: 'Failed to Load Comparison',
  failedAlert: 'Failed to load baseline comparison. Please try again.',
  unmatchedTitle: 'Unmatched Policies Detected',
  /** main holds no configuration of the client (404): nothing captured yet, not a failure */
  noConfigurationTitle: 'No Configuration Captured',
  noConfigurationBody: (client: string) =>
    `${client} has no captured configuration on main yet, so there is nothing to compare with the company baseline. Run a capture to compute its compliance.`,
} as const;

/** Toasts of the baseline view last 6 seconds (spec 3 §8). */
export const BASELINE_TOAST_MS = 6000;

/** The copy indicator resets after 2 s (spec 3 §9). */
export const COPY_RESET_MS = 2000;
