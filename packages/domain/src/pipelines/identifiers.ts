/**
 * What a project or pipeline identifier in an Aegis URL may be (issue 9 §4), checked before any
 * of it reaches an Azure DevOps URL: a project is named by its GUID or by a valid project name
 * (Azure DevOps naming restrictions), and pipeline and run ids are written in digits only.
 */

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Characters a project name may not contain (Azure DevOps naming restrictions). */
const FORBIDDEN_IN_PROJECT_NAME = /[\\/:*?"'<>;#$*{},+=[\]|]/;

// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL_OR_SURROGATE = /[\u0000-\u001f\u007f\ud800-\udfff]/;

/** System reserved names Azure DevOps refuses for a project. */
const RESERVED_PROJECT_NAMES = new Set(
  [
    'AUX',
    'CON',
    'NUL',
    'PRN',
    'DefaultCollection',
    'SERVER',
    'SignalR',
    'Web',
    ...Array.from({ length: 10 }, (_, i) => `COM${i + 1}`),
    ...Array.from({ length: 9 }, (_, i) => `LPT${i + 1}`),
  ].map((name) => name.toUpperCase()),
);

export const MAX_PROJECT_NAME_LENGTH = 64;

/** Why a value is not a project id (a GUID or a valid project name), or undefined when it is. */
export function projectIdProblem(value: string): string | undefined {
  if (GUID.test(value)) return undefined;
  if (value.length === 0) return 'must be a project GUID or name';
  if (value.length > MAX_PROJECT_NAME_LENGTH) {
    return `must be a project GUID or a name of at most ${MAX_PROJECT_NAME_LENGTH} characters`;
  }
  if (CONTROL_OR_SURROGATE.test(value)) return 'must not contain control characters';
  if (FORBIDDEN_IN_PROJECT_NAME.test(value)) {
    return 'must not contain \\ / : * ? " \' < > ; # $ { } , + = [ ] |';
  }
  if (value.startsWith('_')) return 'must not start with _';
  if (value.startsWith('.') || value.endsWith('.')) return 'must not start or end with a period';
  if (value.trim() !== value) return 'must not start or end with a space';
  if (RESERVED_PROJECT_NAMES.has(value.toUpperCase())) return 'is a reserved name';
  return undefined;
}

export function isProjectId(value: string): boolean {
  return projectIdProblem(value) === undefined;
}

/** The largest id Azure DevOps gives a pipeline or a run (a 32-bit integer). */
export const MAX_NUMERIC_ID = 2_147_483_647;

/** A pipeline or run id as written in a URL: digits only (no `1e3`, `0x10`, `+1` or ` 1`). */
export function parseNumericId(value: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) return undefined;
  const id = Number(value);
  return id <= MAX_NUMERIC_ID ? id : undefined;
}
