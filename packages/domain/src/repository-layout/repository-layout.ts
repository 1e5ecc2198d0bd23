// The configuration repository's layout (ARCHITECTURE §3): every path, branch and tag name that
// Aegis reads or writes, in one place. Repository paths carry a leading slash, as Azure Repos
// lists them; branch and tag names are short (`main`, `backup/ABC/...`) unless a function says
// it gives a full ref.
import { isClientCode } from '../clients';
import { InputError } from '../errors';

/** The branch every feature reads and merges into. */
export const MAIN_BRANCH = 'main';

/** Resources root, without a leading slash, as it appears inside a client folder too (spec 1 §9). */
export const RESOURCES_FOLDER = 'M365Config/Resources';
/** The company baseline's resources root (spec 1 §9). */
export const BASELINE_ROOT = `/${RESOURCES_FOLDER}`;
/** The folder holding one sub-folder per client code. */
export const CLIENTS_FOLDER = '/Clients';
/** A client's accepted deviations (spec 3 §3). */
export const ACCEPTED_DEVIATIONS_FILE_NAME = '.accepted-deviations.json';
/** A client's confirmed policy matches (spec 3 §3). */
export const MATCHING_CONFIG_FILE_NAME = '.matching-config.json';
/** A client's tenant parameters (issue 30 §1, ADR 068). */
export const PARAMETERS_FILE_NAME = '.parameters.json';
/** The baseline layers a client names, in order (issue 30 §2, ADR 068). */
export const LAYERS_FILE_NAME = '.layers.json';
/** The folder holding one sub-folder per baseline layer, each with its own resources root. */
export const LAYERS_FOLDER = '/Layers';
/** The folder of the clients' app-deploy pipeline YAML files (spec 2 §7). */
export const CLIENT_YAML_FOLDER = '/Client_Yaml_Files';
const CLIENT_YAML_SUFFIX = '-azure-pipelines.yml';

/** `/Clients/{CODE}`. */
export function clientFolder(clientCode: string): string {
  return `${CLIENTS_FOLDER}/${clientCode}`;
}

/** `/Clients/{CODE}/M365Config/Resources`: the client's copy of the configuration (spec 1 §9). */
export function clientResourcesRoot(clientCode: string): string {
  return `${clientFolder(clientCode)}/${RESOURCES_FOLDER}`;
}

/** `/Clients/{CODE}/.accepted-deviations.json`. */
export function acceptedDeviationsPath(clientCode: string): string {
  return `${clientFolder(clientCode)}/${ACCEPTED_DEVIATIONS_FILE_NAME}`;
}

/** `/Clients/{CODE}/.matching-config.json`. */
export function matchingConfigPath(clientCode: string): string {
  return `${clientFolder(clientCode)}/${MATCHING_CONFIG_FILE_NAME}`;
}

/** `/Clients/{CODE}/.parameters.json`. */
export function clientParametersPath(clientCode: string): string {
  return `${clientFolder(clientCode)}/${PARAMETERS_FILE_NAME}`;
}

/** `/Clients/{CODE}/.layers.json`. */
export function clientLayersPath(clientCode: string): string {
  return `${clientFolder(clientCode)}/${LAYERS_FILE_NAME}`;
}

/** `/Layers/{name}/M365Config/Resources`: a layer's policies, laid out as the company baseline's. */
export function layerResourcesRoot(layerName: string): string {
  return `${LAYERS_FOLDER}/${layerName}/${RESOURCES_FOLDER}`;
}

/** `/Client_Yaml_Files/{folder}-azure-pipelines.yml` (the folder is the pipeline's client folder). */
export function clientYamlPath(folder: string): string {
  return `${CLIENT_YAML_FOLDER}/${folder}${CLIENT_YAML_SUFFIX}`;
}

/** The folder of a client YAML path, or undefined when the path is not one. */
export function parseClientYamlPath(path: string): string | undefined {
  const normal = withLeadingSlash(path);
  const prefix = `${CLIENT_YAML_FOLDER}/`;
  if (!normal.startsWith(prefix) || !normal.endsWith(CLIENT_YAML_SUFFIX)) return undefined;
  const folder = normal.slice(prefix.length, -CLIENT_YAML_SUFFIX.length);
  return folder && !folder.includes('/') ? folder : undefined;
}

/** The client code of a path under `/Clients/{CODE}/…`, or undefined. */
export function clientCodeOfPath(path: string): string | undefined {
  const m = /^\/?Clients\/([^/]+)(?:\/|$)/.exec(path.replace(/\\/g, '/'));
  const code = m?.[1];
  return code && isClientCode(code) ? code : undefined;
}

/** A folder name under /Clients taken from a listed path: the last segment. */
export function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function withLeadingSlash(path: string): string {
  const p = path.replace(/\\/g, '/');
  return p.startsWith('/') ? p : `/${p}`;
}

/**
 * A repository path normalised (forward slashes, one leading slash, no trailing slash, no empty
 * segments). Dot segments and control characters are refused: a path from a request can never
 * leave the folder it is meant for.
 */
export function normaliseRepositoryPath(path: string, field = 'path'): string {
  const segments = path.replace(/\\/g, '/').split('/').filter(Boolean);
  for (const segment of segments) {
    if (segment === '.' || segment === '..') {
      throw new InputError(`${field} must not contain '.' or '..' segments`, field);
    }
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(segment)) {
      throw new InputError(`${field} must not contain control characters`, field);
    }
  }
  return `/${segments.join('/')}`;
}

/**
 * Why a path from a request is not a repository path Aegis reads or writes, or undefined: control
 * characters, backslashes, empty segments and segments of dots only ('.', '..', '....') never
 * reach Azure DevOps.
 */
export function repositoryPathProblem(path: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'must not contain control characters';
  if (path.includes('\\')) return 'must use / between folders';
  const segments = path.replace(/^\//, '').split('/');
  if (segments.some((segment) => segment === '')) return 'must not contain empty segments (//)';
  if (segments.some((segment) => /^\.+$/.test(segment))) {
    return "must not contain '.' or '..' segments";
  }
  return undefined;
}

/**
 * Why a name is not a branch or tag name git accepts (the rules of `git check-ref-format`), or
 * undefined.
 */
export function refNameProblem(name: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) {
    return 'must not contain spaces, control characters or any of ~ ^ : ? * [ \\';
  }
  if (name.includes('..') || name.includes('@{') || name === '@') {
    return "must not contain '..' or '@{'";
  }
  const parts = name.split('/');
  if (parts.some((part) => part === '' || part.startsWith('.') || part.endsWith('.lock'))) {
    return "must not have empty parts or parts starting with '.' or ending with '.lock'";
  }
  if (name.endsWith('.')) return "must not end with '.'";
  return undefined;
}

/** Whether a (normalised) repository path is the folder itself or inside it. */
export function isInsideFolder(path: string, folder: string): boolean {
  const f = folder.replace(/\/+$/, '');
  return path === f || path.startsWith(`${f}/`);
}

/**
 * A path named from the repository's root that must lie in a folder: normalised, and refused
 * (400 naming the field) when it points outside.
 */
export function pathInsideFolder(folder: string, path: string, field = 'path'): string {
  const normal = normaliseRepositoryPath(path, field);
  if (!isInsideFolder(normal, folder)) {
    throw new InputError(`${field} must be inside ${folder}`, field);
  }
  return normal;
}

/**
 * A path confined to a folder: normalised, and refused (400 naming the field) when it would
 * point outside. Relative paths are taken relative to the folder.
 */
export function confinePath(folder: string, path: string, field = 'path'): string {
  const normal = normaliseRepositoryPath(path, field);
  return pathInsideFolder(
    folder,
    isInsideFolder(normal, folder) ? normal : `${folder}/${path}`,
    field,
  );
}

// ---- branches ------------------------------------------------------------------------------

/** The full ref of a branch: `refs/heads/{name}` (a full ref is kept as it is). */
export function branchRef(branch: string): string {
  return branch.startsWith('refs/') ? branch : `refs/heads/${branch}`;
}

/** A branch's short name: `refs/heads/` removed. */
export function shortBranchName(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

/** `refs/heads/main`. */
export const MAIN_REF = branchRef(MAIN_BRANCH);

/** `client-{CODE}-capture-{runId}`: the branch a capture run writes (spec 3 §4). */
export function captureBranchName(clientCode: string, runId: number | string): string {
  return `client-${clientCode}-capture-${runId}`;
}

/** The prefix of a client's capture branches: `client-{CODE}-capture-`. */
export function captureBranchPrefix(clientCode: string): string {
  return `client-${clientCode}-capture-`;
}

/** Client code and run id of a capture branch (short name or full ref), or undefined. */
export function parseCaptureBranch(
  branch: string,
): { clientCode: string; runId: number } | undefined {
  const m = /^client-([A-Z]{3})-capture-(\d+)$/.exec(shortBranchName(branch));
  if (!m?.[1] || !m[2]) return undefined;
  const runId = Number(m[2]);
  return Number.isSafeInteger(runId) ? { clientCode: m[1], runId } : undefined;
}

/** The tag with every non-alphanumeric character turned to a hyphen (spec 3 §4). */
export function sanitiseTagName(tagName: string): string {
  return tagName.replace(/[^A-Za-z0-9]/g, '-');
}

/** The prefix of a client's restore branches: `restore/{client}/`. */
export function restoreBranchPrefix(clientCode: string): string {
  return `restore/${clientCode}/`;
}

/** `restore/{client}/{sanitised tag}` (spec 3 §4, §9). */
export function restoreBranchName(clientCode: string, tagName: string): string {
  return `${restoreBranchPrefix(clientCode)}${sanitiseTagName(tagName)}`;
}

/**
 * The branch of a restore of chosen policies: `restore/{client}/{sanitised tag}-objects-{selection}`,
 * beside the whole-folder restore's branch and never equal to it; `selection` names the chosen set
 * (the same choice gives the same branch, so a second restore of it finds the first one's).
 */
export function objectRestoreBranchName(
  clientCode: string,
  tagName: string,
  selection: string,
): string {
  if (!/^[a-z0-9]+$/.test(selection)) {
    throw new InputError('selection must be lower-case letters and digits', 'selection');
  }
  return `${restoreBranchName(clientCode, tagName)}-objects-${selection}`;
}

/**
 * What a client's proposal branch proposes (ADR 073): its parameters, its baseline layers, or one
 * of its captured policies promoted into the baseline.
 */
export type ClientSettingsKind = 'parameters' | 'layers' | 'promote';

/** The prefix of a client's branches proposing a change to its parameters or layers: `{kind}/{client}/`. */
export function clientSettingsBranchPrefix(kind: ClientSettingsKind, clientCode: string): string {
  return `${kind}/${clientCode}/`;
}

/**
 * `{kind}/{client}/{change}`: the branch of a proposed change to a client's parameters or layers;
 * `change` names the proposed file (the same proposal gives the same branch, so a repeat finds the
 * first one's pull request instead of opening a second).
 */
export function clientSettingsBranchName(
  kind: ClientSettingsKind,
  clientCode: string,
  change: string,
): string {
  if (!/^[a-z0-9]+$/.test(change)) {
    throw new InputError('change must be lower-case letters and digits', 'change');
  }
  return `${clientSettingsBranchPrefix(kind, clientCode)}${change}`;
}

/**
 * The repository path of one of a client's policies named by its resource path
 * (`{Category}/{Kind}/{Policy}.json`, as comparisons name it): inside the client's resources root,
 * or a 400 naming `field`.
 */
export function clientPolicyPath(clientCode: string, resourcePath: string, field = 'path'): string {
  const root = clientResourcesRoot(clientCode);
  const path = pathInsideFolder(root, `${root}/${resourcePath}`, field);
  if (path === root) throw new InputError(`${field} must name a policy file`, field);
  return path;
}

// ---- tags ----------------------------------------------------------------------------------

/** The short tag name: `refs/tags/` removed. */
export function shortTagName(refName: string): string {
  return refName.replace(/^refs\/tags\//, '');
}

/** The prefix of a client's backup tags (spec 3 §7: refs filtered by tags/backup/{client}). */
export function backupTagPrefix(clientCode: string): string {
  return `backup/${clientCode}/`;
}

/** yyyymmdd_hhmmss in UTC: the end of every backup tag name. */
export function formatBackupTimestamp(date: Date): string {
  const iso = date.toISOString(); // 2025-03-01T10:15:00.000Z
  return `${iso.slice(0, 10).replace(/-/g, '')}_${iso.slice(11, 19).replace(/:/g, '')}`;
}

/**
 * `backup/{client}/{yyyymmdd_hhmmss}` for a manual backup, `backup/{client}/scheduled_{…}` for a
 * scheduled one (the pipeline's convention; the date rule of spec 3 §5 reads the end).
 */
export function backupTagName(clientCode: string, date: Date, scheduled: boolean): string {
  return `${backupTagPrefix(clientCode)}${scheduled ? 'scheduled_' : ''}${formatBackupTimestamp(date)}`;
}

const TAG_DATE = /(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})$/;

/**
 * The date of a backup tag: it must end in 8 digits, underscore, 6 digits (yyyymmdd_hhmmss, UTC)
 * forming a real date; otherwise undefined and the tag is discarded (spec 3 §5).
 */
export function backupTagDate(tagName: string): Date | undefined {
  const m = TAG_DATE.exec(tagName);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const real =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s;
  return real ? date : undefined;
}
