import { EXCLUDED_FOLDERS } from './constants';

const RESOURCES_MARKER = 'm365config/resources/';

/**
 * Normalise a file path to a path relative to the resources root, e.g. `AzureAD/AuthorizationPolicy/x.json`.
 * Accepts `M365Config/Resources/...`, `/Clients/ABC/M365Config/Resources/...`, backslashes, or an already relative path.
 */
export function toResourcePath(path: string): string {
  let p = path.replace(/\\/g, '/');
  const i = p.toLowerCase().lastIndexOf(RESOURCES_MARKER);
  if (i >= 0) p = p.slice(i + RESOURCES_MARKER.length);
  return p.replace(/^\/+/, '');
}

/** Category of a policy: the folder after the resources root, 'Other' when there is none (spec 3 §3). */
export function categoryOf(resourcePath: string): string {
  const i = resourcePath.indexOf('/');
  return i > 0 ? resourcePath.slice(0, i) : 'Other';
}

/**
 * The kind of a policy as its folders name it, between the category and the file
 * (`Exchange/RemoteDomain/Default.json` → 'RemoteDomain'): what tells apart the several policies
 * called 'Default' of one category (issue 27). Empty when the file sits in the category itself.
 */
export function policyKindFolder(resourcePath: string): string {
  const parts = toResourcePath(resourcePath).split('/');
  return parts.slice(1, -1).join('/');
}

/** File name without folder and `.json` extension. */
export function policyFileName(resourcePath: string): string {
  const base = resourcePath.slice(resourcePath.lastIndexOf('/') + 1);
  return base.replace(/\.json$/i, '');
}

const EXCLUDED_FOLDERS_LOWER = new Set(EXCLUDED_FOLDERS.map((f) => f.toLowerCase()));

/** Only `.json` files outside Descriptions, Office365, PowerPlatform and SecurityCompliance are compared (spec 1 §5). */
export function isComparableFile(resourcePath: string): boolean {
  if (!resourcePath.toLowerCase().endsWith('.json')) return false;
  const top = resourcePath.slice(0, Math.max(0, resourcePath.indexOf('/'))).toLowerCase();
  return !EXCLUDED_FOLDERS_LOWER.has(top);
}

/** Excluded path normalisation: leading slash, no trailing slash, lower case (spec 1 §5). */
export function normaliseExcludedPath(path: string): string {
  const p = path.trim().replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase();
  return p.startsWith('/') ? p : `/${p}`;
}

/** Whether a resource path falls under one of the (normalised) excluded paths, matched by prefix. */
export function isExcludedPath(
  resourcePath: string,
  normalisedExcludedPaths: readonly string[],
): boolean {
  if (normalisedExcludedPaths.length === 0) return false;
  const p = normaliseExcludedPath(resourcePath);
  return normalisedExcludedPaths.some((e) => e !== '/' && p.startsWith(e));
}

const PREREQUISITE_FOLDERS = new Set<string>([
  'group',
  'groups',
  'requireduser',
  'requiredusers',
  'onboardinggroup',
  'onboardinggroups',
  'maintenanceconfiguration',
  'maintenanceconfigurations',
  'inboundconnector',
  'inboundconnectors',
  'definitionpolicy',
  'definitionpolicies',
]);

/**
 * Prerequisite locations (spec 1 §5): a folder named Groups, RequiredUsers, OnboardingGroups,
 * MaintenanceConfigurations, InboundConnectors or DefinitionPolicies (singular accepted) anywhere in the path,
 * in any case.
 */
export function isPrerequisitePath(resourcePath: string): boolean {
  let start = 0;
  for (let end = resourcePath.indexOf('/'); end >= 0; end = resourcePath.indexOf('/', start)) {
    const len = end - start;
    // the names are 5 to 25 characters long
    if (
      len >= 5 &&
      len <= 25 &&
      PREREQUISITE_FOLDERS.has(resourcePath.slice(start, end).toLowerCase())
    )
      return true;
    start = end + 1;
  }
  return false;
}
