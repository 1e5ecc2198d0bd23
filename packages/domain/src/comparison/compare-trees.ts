import {
  notCapturedOutcomeOf,
  notCapturedWorkloads,
  type CaptureManifest,
} from '../capture/manifest';
import {
  ciReader,
  detectPolicyKind,
  policyDisplayName,
  type CIReader,
} from '../matching/policy-kind';
import { baselineCompliancePercentage } from '../scores';
import {
  arrayItemSeverity,
  highestSeverity,
  missingPolicySeverity,
  severityByPropertyName,
  type Severity,
} from '../severity';

import { MISSING } from './constants';
import { diffDocuments, type LeafKind } from './diff-documents';
import { createPropertyFilter, type PropertyFilter } from './exclusions';
import {
  categoryOf,
  isComparableFile,
  isExcludedPath,
  isPrerequisitePath,
  normaliseExcludedPath,
  policyFileName,
  toResourcePath,
} from './paths';
import type {
  ClientOnlyPolicy,
  CompareOptions,
  ComparisonResults,
  ComparisonRow,
  ComplianceData,
  ConfigFile,
  DeviationGroup,
  PropertyDeviation,
} from './types';

const DESCRIPTIONS: Record<LeafKind, string> = {
  equal: 'Matches baseline',
  modified: 'Differs from baseline',
  removed: 'Missing from client configuration',
  added: 'Not in baseline',
  itemRemoved: 'Array item missing from client configuration',
  itemAdded: 'Array item not in baseline',
};

const show = (v: unknown): unknown => (v === undefined ? MISSING : v);

interface PreparedTree {
  byPath: Map<string, ConfigFile>;
}

/** Normalise paths, keep only comparable .json files outside the excluded paths. */
function prepare(files: Iterable<ConfigFile>, ctx: Context): PreparedTree {
  const byPath = new Map<string, ConfigFile>();
  for (const f of files) {
    const path = toResourcePath(f.path);
    if (!isComparableFile(path) || isExcludedPath(path, ctx.excludedPaths)) continue;
    if (notCapturedOutcomeOf(ctx.manifest, path)) continue;
    byPath.set(path, { path, content: f.content });
  }
  return { byPath };
}

interface Context {
  filter: PropertyFilter;
  excludedPaths: string[];
  manifest: CaptureManifest | undefined;
}

function context(options: CompareOptions): Context {
  return {
    filter: createPropertyFilter(
      options.excludedProperties ?? [],
      options.useDefaultExclusions ?? true,
    ),
    excludedPaths: (options.excludedPaths ?? []).map(normaliseExcludedPath),
    manifest: options.manifest,
  };
}

function reporter(total: number, onProgress?: (p: number) => void): (done: number) => void {
  let last = -1;
  return (done) => {
    if (!onProgress) return;
    const p = total === 0 ? 100 : Math.floor((done / total) * 100);
    if (p !== last) {
      last = p;
      onProgress(p);
    }
  };
}

/**
 * The Configuration Comparison rows (spec 1 §3): category → policy (file name) → rows, every compared leaf of
 * every baseline policy with its client value. A policy passes when all its rows are equal ({@link policyPasses}).
 * Baseline files without a client counterpart produce rows whose DiffValue is 'Missing'.
 */
export function buildComparisonRows(
  baselineFiles: Iterable<ConfigFile>,
  clientFiles: Iterable<ConfigFile>,
  options: CompareOptions = {},
): ComparisonResults {
  const ctx = context(options);
  const base = prepare(baselineFiles, ctx);
  const client = prepare(clientFiles, ctx);
  const results: ComparisonResults = {};
  const progress = reporter(base.byPath.size, options.onProgress);
  let done = 0;
  progress(0);
  for (const [path, file] of base.byPath) {
    const category = categoryOf(path);
    const policies = (results[category] ??= {});
    let name = policyFileName(path);
    if (policies[name]) name = path.slice(category.length + 1).replace(/\.json$/i, '');
    const rows: ComparisonRow[] = [];
    const other = client.byPath.get(path);
    if (file.content === null || (other && other.content === null)) {
      rows.push({
        Path: '',
        RefValue: file.content === null ? 'Invalid JSON' : 'Valid JSON',
        DiffValue: other?.content === null ? 'Invalid JSON' : 'Valid JSON',
        Equal: false,
        Description: 'File could not be parsed',
      });
    } else {
      diffDocuments(
        file.content,
        other ? other.content : {},
        { filter: ctx.filter, emitEqual: true },
        (p, kind, a, b) => {
          rows.push({
            Path: p,
            RefValue: show(a),
            DiffValue: show(b),
            Equal: kind === 'equal',
            Description: DESCRIPTIONS[kind],
          });
        },
      );
    }
    policies[name] = rows;
    progress(++done);
  }
  return results;
}

/** A policy passes only when every one of its rows is equal (spec 1 §4). */
export function policyPasses(rows: readonly ComparisonRow[]): boolean {
  return rows.every((r) => r.Equal);
}

function toDeviation(
  property: string,
  kind: LeafKind,
  a: unknown,
  b: unknown,
  policyType: string,
  isPrerequisite: boolean,
): PropertyDeviation {
  const isArrayChange = kind === 'itemAdded' || kind === 'itemRemoved';
  const change =
    kind === 'itemAdded' || kind === 'added'
      ? 'added'
      : kind === 'modified'
        ? 'modified'
        : 'removed';
  const severity: Severity = isArrayChange
    ? arrayItemSeverity(kind === 'itemRemoved' ? 'removed' : 'added')
    : severityByPropertyName(property);
  return {
    property,
    baselineValue: show(a),
    clientValue: show(b),
    severity,
    isMissing: false,
    isPrerequisite,
    policyType,
    change,
    isArrayChange,
  };
}

/**
 * Compare one baseline policy with one client policy; `undefined` when they are compliant.
 * `clientFile` undefined means the policy is missing from the client.
 */
export function comparePolicy(
  baselineFile: ConfigFile,
  clientFile: ConfigFile | undefined,
  options: CompareOptions | PropertyFilter = {},
): DeviationGroup | undefined {
  const filter = 'isExcluded' in options ? options : context(options).filter;
  const path = toResourcePath(baselineFile.path);
  const isPrerequisite = isPrerequisitePath(path);
  const baseline = baselineFile.content;
  if (clientFile && baseline !== null && clientFile.content !== null) {
    // the common case: compare first, and describe the policy only when it deviates
    const deviations: PropertyDeviation[] = [];
    let policyType: string | undefined;
    let get: CIReader | undefined;
    diffDocuments(baseline, clientFile.content, { filter, emitEqual: false }, (p, kind, a, b) => {
      policyType ??= detectPolicyKind(baseline, (get = ciReader(baseline)), path);
      deviations.push(toDeviation(p, kind, a, b, policyType, isPrerequisite));
    });
    if (deviations.length === 0) return undefined;
    const clientPath = toResourcePath(clientFile.path);
    return describeGroup(path, baseline, isPrerequisite, get, {
      isMissing: false,
      changeType: 'modified',
      clientPolicy: clientFile.content,
      ...(clientPath !== path ? { clientPath } : {}),
      deviations,
    });
  }
  if (!clientFile) {
    const severity = missingPolicySeverity(isPrerequisite);
    const get = ciReader(baseline);
    return describeGroup(path, baseline, isPrerequisite, get, {
      isMissing: true,
      changeType: 'missing',
      clientPolicy: undefined,
      deviations: [
        {
          property: policyDisplayName(baseline, policyFileName(path), get),
          baselineValue: baseline,
          clientValue: MISSING,
          severity,
          isMissing: true,
          isPrerequisite,
          policyType: detectPolicyKind(baseline, get, path),
          change: 'removed',
          isArrayChange: false,
        },
      ],
    });
  }
  return describeGroup(path, baseline, isPrerequisite, undefined, {
    policyName: 'Error',
    isMissing: false,
    changeType: 'modified',
    clientPolicy: clientFile.content,
    clientPath: toResourcePath(clientFile.path),
    deviations: [],
  });
}

/** A deviation group of one baseline policy (`partial` wins over the fields derived from the policy). */
function describeGroup(
  path: string,
  baseline: unknown,
  isPrerequisite: boolean,
  reader: CIReader | undefined,
  partial: Pick<DeviationGroup, 'isMissing' | 'changeType' | 'clientPolicy' | 'deviations'> &
    Partial<DeviationGroup>,
): DeviationGroup {
  const get = reader ?? ciReader(baseline);
  const sev =
    highestSeverity(partial.deviations.map((d) => d.severity)) ??
    (isPrerequisite ? 'prerequisite' : 'low');
  return {
    path,
    policyName: policyDisplayName(baseline, policyFileName(path), get),
    category: categoryOf(path),
    severity: sev,
    highestSeverity: sev,
    deviationCount: partial.deviations.length,
    isPrerequisite,
    baselinePolicy: baseline,
    conditions: get('conditions'),
    grantControls: get('grantControls'),
    sessionControls: get('sessionControls'),
    state: get('state'),
    hasArrayChanges: partial.deviations.some((d) => d.isArrayChange),
    ...partial,
  };
}

/**
 * Recompute every count and the percentage of compliance data from its deviation groups and totalCount
 * (spec 3 §5). `deviations` holds exactly the non-compliant baseline policies.
 */
export function recomputeCompliance(data: ComplianceData): ComplianceData {
  const counts = { critical: 0, high: 0, medium: 0, low: 0, prerequisite: 0 };
  let prerequisiteCount = 0;
  let missing = 0;
  for (const g of data.deviations) {
    counts[g.highestSeverity]++;
    if (g.isPrerequisite) prerequisiteCount++;
    if (g.isMissing && !g.isPrerequisite) missing++;
  }
  const compliantCount = Math.max(0, data.totalCount - data.deviations.length);
  return {
    ...data,
    compliantCount,
    deviationCount: data.deviations.length,
    criticalCount: counts.critical,
    highCount: counts.high,
    mediumCount: counts.medium,
    lowCount: counts.low,
    prerequisiteCount,
    missingPoliciesCount: missing,
    compliancePercentage: baselineCompliancePercentage(
      compliantCount,
      data.totalCount,
      prerequisiteCount,
    ),
  };
}

/**
 * Baseline compliance (spec 3): compare every baseline policy with the client policy at the same resource path.
 * Missing policies are critical (prerequisite in prerequisite locations); client files without a baseline
 * counterpart are listed in clientOnlyPolicies. Groups are sorted by category, then policy name.
 */
export function evaluateCompliance(
  baselineFiles: Iterable<ConfigFile>,
  clientFiles: Iterable<ConfigFile>,
  options: CompareOptions = {},
): ComplianceData {
  const ctx = context(options);
  const base = prepare(baselineFiles, ctx);
  const client = prepare(clientFiles, ctx);
  const progress = reporter(base.byPath.size, options.onProgress);
  progress(0);
  const deviations: DeviationGroup[] = [];
  let done = 0;
  for (const [path, file] of base.byPath) {
    const g = comparePolicy(file, client.byPath.get(path), ctx.filter);
    if (g) deviations.push(g);
    progress(++done);
  }
  const clientOnlyPolicies: ClientOnlyPolicy[] = [];
  for (const [path, file] of client.byPath) {
    if (base.byPath.has(path)) continue;
    clientOnlyPolicies.push({
      path,
      policyName: policyDisplayName(file.content, policyFileName(path)),
      clientPolicy: file.content,
    });
  }
  deviations.sort(
    (a, b) => a.category.localeCompare(b.category) || a.policyName.localeCompare(b.policyName),
  );
  return recomputeCompliance({
    totalCount: base.byPath.size,
    compliantCount: 0,
    deviationCount: 0,
    criticalCount: 0,
    highCount: 0,
    mediumCount: 0,
    lowCount: 0,
    prerequisiteCount: 0,
    compliancePercentage: 0,
    missingPoliciesCount: 0,
    clientOnlyPolicies,
    matchingApplied: false,
    matchesAppliedCount: 0,
    acceptedDeviationsApplied: false,
    acceptedDeviationsCount: 0,
    deviations,
    notCaptured: notCapturedWorkloads(ctx.manifest),
  });
}

/** Both result models in one call (rows for the comparison screen, compliance for the report). */
export function compareConfigurations(
  baselineFiles: readonly ConfigFile[],
  clientFiles: readonly ConfigFile[],
  options: CompareOptions = {},
): { rows: ComparisonResults; compliance: ComplianceData } {
  const { onProgress, ...rest } = options;
  const rows = buildComparisonRows(baselineFiles, clientFiles, {
    ...rest,
    onProgress: onProgress ? (p) => onProgress(Math.floor(p / 2)) : undefined,
  });
  const compliance = evaluateCompliance(baselineFiles, clientFiles, {
    ...rest,
    onProgress: onProgress ? (p) => onProgress(50 + Math.floor(p / 2)) : undefined,
  });
  return { rows, compliance };
}
