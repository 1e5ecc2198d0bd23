// The rules of the Tenant baseline screen's pickers (spec 2 §4, §5, §9): selection rules, presets,
// time estimates and their totals, and the configuration preview's limits. Pure: the screen and
// the server both use them.
import { textOf } from '../formatting/formatting';

import {
  BASELINE_COMPONENTS,
  DEPLOY_GROUPS,
  OFFBOARD_COMPONENTS,
  OFFBOARD_GROUPS,
} from './catalogue';

// ---- selection rules (spec 2 §4) ------------------------------------------------------------

export const CONDITIONAL_ACCESS = 'Conditional Access Policies';
export const NAMED_LOCATIONS = 'Named Locations';
export const AUTO_PILOT = 'Auto Pilot';
export const DEVICE_REGISTRATION = 'Device Registration';

/** Spec 2 §4: shown while Auto Pilot is selected without Device Registration. */
export const AUTO_PILOT_WARNING =
  'Auto Pilot requires Device Registration. Select Device Registration as well, or make sure the tenant already has it.';

/**
 * Selects or clears one deploy component under the spec's rules: selecting Conditional Access
 * Policies or Named Locations selects the other; Conditional Access Policies need Named Locations,
 * so clearing Named Locations clears them too.
 */
export function toggleDeployComponent(
  selected: readonly string[],
  name: string,
  checked: boolean,
): string[] {
  const next = new Set(selected);
  if (checked) {
    next.add(name);
    if (name === CONDITIONAL_ACCESS || name === NAMED_LOCATIONS) {
      next.add(CONDITIONAL_ACCESS);
      next.add(NAMED_LOCATIONS);
    }
  } else {
    next.delete(name);
    if (name === NAMED_LOCATIONS) next.delete(CONDITIONAL_ACCESS);
  }
  return inCatalogueOrder(next, DEPLOY_ORDER);
}

/** The warnings a deploy selection raises (spec 2 §4). */
export function deploySelectionWarnings(selected: readonly string[]): string[] {
  return selected.includes(AUTO_PILOT) && !selected.includes(DEVICE_REGISTRATION)
    ? [AUTO_PILOT_WARNING]
    : [];
}

const DEPLOY_ORDER = DEPLOY_GROUPS.flatMap((g) => g.components);
const OFFBOARD_ORDER = Object.keys(OFFBOARD_COMPONENTS);

function inCatalogueOrder(names: Iterable<string>, order: readonly string[]): string[] {
  const set = new Set(names);
  return order.filter((n) => set.has(n));
}

/** Off-board names in the order a run removes them (catalogue order). */
export function offboardRunOrder(names: readonly string[]): string[] {
  return inCatalogueOrder(names, OFFBOARD_ORDER);
}

/** Deploy names in the order of the groups. */
export function deployOrder(names: readonly string[]): string[] {
  return inCatalogueOrder(names, DEPLOY_ORDER);
}

// ---- presets (spec 2 §9) --------------------------------------------------------------------

const ESSENTIAL_SECURITY = [
  'Device Compliance',
  'Managed App',
  'Anti Phishing',
  'Org Configuration Compliance',
  'Required Entra ID Groups',
];

export const DEPLOY_PRESETS: Readonly<Record<string, readonly string[]>> = {
  'Essential Security': deployOrder(ESSENTIAL_SECURITY),
  'Standard Business': deployOrder([
    ...ESSENTIAL_SECURITY,
    'Auto Pilot',
    'Deploy Intent',
    'SharePoint',
    'MEM Groups',
    'AAD Consent Policy',
  ]),
  'All Components': DEPLOY_ORDER,
};

const INTUNE_REMOVALS = OFFBOARD_GROUPS.find((g) => g.label === 'Intune')?.components ?? [];
/** The Exchange removals: every off-board entry of the Exchange category that removes objects. */
const EXCHANGE_REMOVALS = OFFBOARD_ORDER.filter(
  (n) =>
    OFFBOARD_COMPONENTS[n]?.category === 'Exchange Online Configuration' &&
    OFFBOARD_COMPONENTS[n]?.action === 'remove',
);

export const OFFBOARD_PRESETS: Readonly<Record<string, readonly string[]>> = {
  'Minimal Cleanup': offboardRunOrder([
    'Remove Conditional Access Policies and Named Locations',
    'Remove Transport Rules',
    'Remove Safe Links',
    'Remove Required Entra ID Groups',
  ]),
  'Standard Off-Board': offboardRunOrder([
    ...INTUNE_REMOVALS,
    ...EXCHANGE_REMOVALS,
    'Remove MEM Groups',
    'Remove Required Entra ID Groups',
    'Remove Azure AD Policy Baseline',
  ]),
  'Complete Wipe': offboardRunOrder(OFFBOARD_GROUPS.flatMap((g) => g.components)),
};

// ---- time estimates (spec 2 §9) -------------------------------------------------------------

/** Spec 2 §9: deploy estimates in seconds; the spec's 'Required Groups' is 'Required Entra ID Groups'. */
export const DEPLOY_TIME_ESTIMATES_SECONDS: Readonly<Record<string, number>> = {
  'Device Compliance': 30,
  'Auto Pilot': 8 * 60,
  'Managed App': 12 * 60,
  'iOS Apps': 5 * 60,
  'Android Apps': 5 * 60,
  'Deploy Intent': 10 * 60,
  'Config Policies': 18 * 60,
  'Health Scripts': 6 * 60,
  'Management Scripts': 10 * 60,
  'Clean-Up': 3 * 60,
  'Org Customisation': 2 * 60,
  'Org Config': 8 * 60,
  'Anti Phishing': 12 * 60,
  ATP: 15 * 60,
  SharePoint: 10 * 60,
  'Service Accounts': 8 * 60,
  'MEM Groups': 5 * 60,
  'Required Entra ID Groups': 6 * 60,
};
/** Spec 2 §9: every other component. */
export const DEFAULT_DEPLOY_ESTIMATE_SECONDS = 5 * 60;

export function deployEstimateSeconds(name: string): number {
  return DEPLOY_TIME_ESTIMATES_SECONDS[name] ?? DEFAULT_DEPLOY_ESTIMATE_SECONDS;
}

export function totalDeploySeconds(names: readonly string[]): number {
  return names.reduce((sum, n) => sum + deployEstimateSeconds(n), 0);
}

/** Spec 2 §9: seconds under a minute ('30 seconds'), otherwise 'Xm Ys'. */
export function formatDeployDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} seconds`;
  return `${Math.floor(s / 60)}m ${s % 60}s`;
}

/** Spec 2 §9: an off-board range '2-3' gives 3; no range gives 3. */
export const DEFAULT_OFFBOARD_UPPER_MINUTES = 3;

export function offboardUpperMinutes(estimatedTime: string | undefined): number {
  const match = /^\s*\d+\s*-\s*(\d+)\s*$/.exec(estimatedTime ?? '');
  return match?.[1] ? Number(match[1]) : DEFAULT_OFFBOARD_UPPER_MINUTES;
}

export function totalOffboardMinutes(names: readonly string[]): number {
  return names.reduce(
    (sum, n) => sum + offboardUpperMinutes(OFFBOARD_COMPONENTS[n]?.estimatedTime),
    0,
  );
}

/** Spec 2 §9: minutes, or hours and minutes from an hour on. */
export function formatOffboardDuration(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} minute${m === 1 ? '' : 's'}`;
  const rest = m % 60;
  return rest === 0 ? `${m / 60}h` : `${Math.floor(m / 60)}h ${rest}m`;
}

// ---- validation (spec 2 §5) -----------------------------------------------------------------

export const SELECT_COMPONENT_TO_REMOVE = 'Please select at least one component to remove';
export const SELECT_PIPELINE = 'Please select a pipeline';

/** Spec 2 §5: what blocks the off-board confirmation, or undefined. */
export function offboardBlocker(input: {
  components: readonly string[];
  pipeline: string | undefined;
}): string | undefined {
  if (input.components.length === 0) return SELECT_COMPONENT_TO_REMOVE;
  if (!input.pipeline) return SELECT_PIPELINE;
  return undefined;
}

export function isDeployComponent(name: string): boolean {
  return Object.hasOwn(BASELINE_COMPONENTS, name);
}

export function isOffboardComponent(name: string): boolean {
  return Object.hasOwn(OFFBOARD_COMPONENTS, name);
}

// ---- configuration preview (spec 2 §4, §9) --------------------------------------------------

export const PREVIEW_MAX_FILES_PER_DIRECTORY = 5;
export const PREVIEW_MAX_SETTINGS_PER_FILE = 6;
export const PREVIEW_MAX_VALUE_LENGTH = 50;
export const PREVIEW_MAX_PATH_LENGTH = 60;

/** Strings over 50 characters end in an ellipsis (50 characters kept). */
export function truncatePreviewValue(value: string): string {
  return value.length > PREVIEW_MAX_VALUE_LENGTH
    ? `${value.slice(0, PREVIEW_MAX_VALUE_LENGTH)}...`
    : value;
}

/** Paths over 60 characters keep their end: '...' and the last 57 characters. */
export function shortenPreviewPath(path: string): string {
  return path.length > PREVIEW_MAX_PATH_LENGTH
    ? `...${path.slice(path.length - (PREVIEW_MAX_PATH_LENGTH - 3))}`
    : path;
}

/** Spec 2 §4: listing fills 0–50 %, downloads 50–100 %. */
export function previewProgress(
  phase: 'listing' | 'downloading',
  done: number,
  total: number,
): number {
  const fraction = total <= 0 ? 1 : Math.min(1, Math.max(0, done / total));
  return Math.round(phase === 'listing' ? fraction * 50 : 50 + fraction * 50);
}

export interface PreviewSetting {
  name: string;
  value: string;
  rawProperty: string;
  description: string;
}

/** A setting's value as the preview shows it (objects and arrays as JSON, then truncated). */
export function previewValue(value: unknown): string {
  return truncatePreviewValue(textOf(value));
}

/** 'mailTipsAllTipsEnabled' → 'Mail Tips All Tips Enabled'. */
export function settingDisplayName(rawProperty: string): string {
  const words = rawProperty
    .replace(/^@odata\./, '')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_.]+/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const NOT_SETTINGS = new Set([
  '@odata.context',
  '@odata.type',
  'id',
  'createdDateTime',
  'lastModifiedDateTime',
  'modifiedDateTime',
  'version',
]);

/** The first settings of a configuration file (at most 6), as the preview rows show them. */
export function previewSettings(config: unknown): PreviewSetting[] {
  if (!config || typeof config !== 'object' || Array.isArray(config)) return [];
  return Object.entries(config as Record<string, unknown>)
    .filter(([key]) => !NOT_SETTINGS.has(key))
    .slice(0, PREVIEW_MAX_SETTINGS_PER_FILE)
    .map(([key, value]) => ({
      name: settingDisplayName(key),
      value: previewValue(value),
      rawProperty: key,
      description: describeValue(value),
    }));
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `List of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value && typeof value === 'object') return 'Group of settings';
  if (typeof value === 'boolean') return value ? 'Enabled' : 'Disabled';
  if (value === null) return 'Not configured';
  return typeof value === 'number' ? 'Number' : 'Text';
}

/** Spec 2 §3 deploy component info: what a component needs first (text), or undefined. */
export function deployDependencies(name: string): string | undefined {
  if (name === CONDITIONAL_ACCESS) {
    return 'Requires Named Locations (selected with it) and the Required Entra ID Groups the policies include and exclude.';
  }
  if (name === NAMED_LOCATIONS) return 'Selected together with Conditional Access Policies.';
  if (name === AUTO_PILOT) return 'Requires Device Registration.';
  if (name === 'Managed App' || name === 'Config Policies' || name === 'Deploy Intent') {
    return 'Assignments target the MEM Groups; deploy them first on a new tenant.';
  }
  if (name === 'Org Config' || name === 'Org Configuration Compliance') {
    return 'Needs organisation customisation (Org Customisation) on a new tenant.';
  }
  return undefined;
}
