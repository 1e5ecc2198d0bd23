import type { CaptureManifest, NotCapturedWorkload } from '../capture/manifest';
import type { Severity } from '../severity';

/**
 * One configuration file of a tree. `path` is relative to the resources root (`AzureAD/AuthorizationPolicy/x.json`);
 * a path still carrying `M365Config/Resources/` (or `Clients/ABC/M365Config/Resources/`) is accepted and normalised.
 * `content` is the parsed JSON, `null` when the file was not valid JSON.
 */
export interface ConfigFile {
  path: string;
  content: unknown;
}

/** Progress in percent, 0–100, reported from real work. */
export type ProgressCallback = (percent: number) => void;

export interface CompareOptions {
  /** Extra excluded paths (normalised, matched by prefix against `/<resource path>`). */
  excludedPaths?: readonly string[];
  /** Extra excluded properties, merged with the defaults. */
  excludedProperties?: readonly string[];
  /** Set false to ignore only the custom exclusions (default true). */
  useDefaultExclusions?: boolean;
  onProgress?: ProgressCallback;
  /**
   * What the client's capture could not read (ADR 050): those workloads' policies, on either side,
   * are left out of the comparison and reported apart in `notCaptured`.
   */
  manifest?: CaptureManifest;
}

/** A row of the Configuration Comparison screen (spec 1 §3). Absent values are the string 'Missing'. */
export interface ComparisonRow {
  Path: string;
  RefValue: unknown;
  DiffValue: unknown;
  Equal: boolean;
  Description: string;
}

/** category → policy (file) name → rows. */
export type ComparisonResults = Record<string, Record<string, ComparisonRow[]>>;

/** Property-level change kind. */
export type PropertyChange = 'modified' | 'added' | 'removed';

/** A property deviation (spec 3 §3). Absent values are the string 'Missing'. */
export interface PropertyDeviation {
  property: string;
  baselineValue: unknown;
  clientValue: unknown;
  severity: Severity;
  /** The whole policy is missing from the client. */
  isMissing: boolean;
  isPrerequisite: boolean;
  /** Policy kind of the baseline policy (see matching). */
  policyType: string;
  change: PropertyChange;
  /** The difference is an array item added or removed. */
  isArrayChange: boolean;
  /** Set when this deviation was accepted but the acceptance no longer holds (ADR 028). */
  acceptance?: AcceptanceFlag;
}

/** A monitored acceptance that no longer holds: the client's value moved away, or the acceptance expired. */
export interface AcceptanceFlag {
  status: 'valueChanged' | 'expired';
  acceptedBy: string;
  acceptedAt: string;
  reason?: string;
  expiresAt?: string;
  /** The client's value when it was accepted. */
  acceptedValue?: unknown;
}

/** The accepted deviations of one policy that are in force, for the report's own section. */
export interface AcceptedDeviationGroup {
  path: string;
  policyName: string;
  category: string;
  acceptedBy: string;
  acceptedAt: string;
  reason?: string;
  expiresAt?: string;
  deviations: PropertyDeviation[];
}

export type GroupChangeType = 'modified' | 'added' | 'removed' | 'missing';

/** A deviation group: one baseline policy that is not compliant (spec 3 §3). */
export interface DeviationGroup {
  /** Resource path of the baseline policy. */
  path: string;
  /** Resource path of the client policy compared (differs from `path` for a confirmed match). */
  clientPath?: string;
  policyName: string;
  category: string;
  severity: Severity;
  highestSeverity: Severity;
  deviationCount: number;
  isMissing: boolean;
  isPrerequisite: boolean;
  changeType: GroupChangeType;
  baselinePolicy: unknown;
  clientPolicy: unknown;
  conditions?: unknown;
  grantControls?: unknown;
  sessionControls?: unknown;
  state?: unknown;
  matchStatus?: 'matched';
  hasArrayChanges: boolean;
  deviations: PropertyDeviation[];
}

export interface ClientOnlyPolicy {
  path: string;
  policyName: string;
  clientPolicy: unknown;
}

/**
 * The policy documents a deviation group carries: what the server needs to match and recompute, and
 * what no report shows (a 1,000-policy client would otherwise send every policy twice).
 */
export type PolicyDocumentFields =
  'baselinePolicy' | 'clientPolicy' | 'conditions' | 'grantControls' | 'sessionControls' | 'state';

/** A deviation group as a report shows it: without the policy documents. */
export type DeviationSummary = Omit<DeviationGroup, PolicyDocumentFields>;

/** Compliance data as a report shows it (see {@link complianceSummary}). */
export interface ComplianceSummary extends Omit<
  ComplianceData,
  'deviations' | 'clientOnlyPolicies'
> {
  deviations: DeviationSummary[];
  clientOnlyPolicies: Omit<ClientOnlyPolicy, 'clientPolicy'>[];
}

/** Compliance data (spec 3 §3). `deviations` lists the non-compliant baseline policies. */
export interface ComplianceData {
  totalCount: number;
  compliantCount: number;
  deviationCount: number;
  criticalCount: number;
  highCount: number;
  mediumCount: number;
  lowCount: number;
  prerequisiteCount: number;
  compliancePercentage: number;
  missingPoliciesCount: number;
  clientOnlyPolicies: ClientOnlyPolicy[];
  matchingApplied: boolean;
  matchesAppliedCount: number;
  acceptedDeviationsApplied: boolean;
  acceptedDeviationsCount: number;
  deviations: DeviationGroup[];
  /** Accepted deviations in force, by policy (set once accepted deviations are applied). */
  acceptedGroups?: AcceptedDeviationGroup[];
  /** workloads the client's capture did not read: not compared, never deviations (ADR 050) */
  notCaptured?: NotCapturedWorkload[];
}
