import type { ConfigFile } from '../comparison';
import type { Severity } from '../severity';

/** The five standard categories (spec 1 §3), in display order. */
export const STANDARD_CATEGORIES = [
  'Conditional Access',
  'Azure AD Settings',
  'Device Settings',
  'Defender for Office 365',
  'Exchange Security',
] as const;
export type StandardCategory = (typeof STANDARD_CATEGORIES)[number];

/** What a check found. `current` is 'Missing' when the setting is absent (never a pass). */
export interface CheckEvaluation {
  expected: string;
  current: string;
  pass: boolean;
  /** Resource path of the file the check looked at. */
  file?: string;
}

/** One check of the standard baseline catalogue. */
export interface StandardCheck {
  id: string;
  title: string;
  description: string;
  category: StandardCategory;
  severity: Exclude<Severity, 'prerequisite'>;
  rationale: string;
  /** The public control this check follows (Maester test id, CIS M365 Foundations or CISA SCuBA id). */
  controlReference: string;
  /** A plain function (no `this`): the runner copies the check without it. */
  evaluate: (config: ClientConfig) => CheckEvaluation;
}

/** Result of one check, as shown on the comparison screen and in the PDF. */
export interface StandardCheckResult extends CheckEvaluation {
  id: string;
  title: string;
  description: string;
  category: StandardCategory;
  severity: Exclude<Severity, 'prerequisite'>;
  rationale: string;
  controlReference: string;
  /** Whether the check found something to evaluate (current is not 'Missing'). */
  evaluated: boolean;
}

export interface StandardBaselineResult {
  results: StandardCheckResult[];
  byCategory: Record<StandardCategory, StandardCheckResult[]>;
  total: number;
  passed: number;
  failed: number;
  /** Rounded passed over total (spec 1 §9). */
  percentage: number;
  /** Number of checks that found their setting. */
  evaluatedCount: number;
  /** 'No security settings found to evaluate in the client configuration.' when nothing could be evaluated. */
  message?: string;
}

/** A parsed client configuration item: one JSON object with the file it came from. */
export interface ConfigItem {
  path: string;
  value: Record<string, unknown>;
}

/** The client configuration as the checks see it. */
export interface ClientConfig {
  items: readonly ConfigItem[];
  files: readonly ConfigFile[];
}
