/** Spec 1 §9: a client pipeline's folder is the client code, 3 characters. */
export const PIPELINE_FOLDER_CODE_LENGTH = 3;

/** The folder without its leading backslash(es), as the screens show it. */
export function stripFolder(folder: string | undefined): string {
  return (folder ?? '').replace(/^\\+/, '');
}

/** Spec 1 §5: pipelines are shown only when the folder without its backslash is exactly 3 characters. */
export function isClientPipelineFolder(folder: string | undefined): boolean {
  return stripFolder(folder).length === PIPELINE_FOLDER_CODE_LENGTH;
}

/**
 * Spec 1 §3: the project is the 5th path segment of a pipeline's self link
 * (`https:` / `` / host / organisation / project / …).
 */
export function projectFromSelfLink(href: string): string | undefined {
  if (!/^[a-z][a-z\d+.-]*:\/\/[^/\s]+\//i.test(href)) return undefined;
  const segment = href.split('/')[4];
  return segment ? decodeURIComponent(segment) : undefined;
}

/** Spec 1 §2: the first 8 characters of a project id followed by an ellipsis. */
export function shortProjectId(id: string): string {
  return `${id.slice(0, 8)}...`;
}

/** The 8 project card icons; the first letter of the name picks one. */
export const PROJECT_ICON_NAMES = [
  'folder',
  'rocket',
  'cloud',
  'code',
  'database',
  'shield',
  'briefcase',
  'globe',
] as const;
export type ProjectIconName = (typeof PROJECT_ICON_NAMES)[number];

export function projectIconFor(name: string): ProjectIconName {
  const code = name.trim().toUpperCase().charCodeAt(0);
  const index = Number.isNaN(code) ? 0 : code % PROJECT_ICON_NAMES.length;
  return PROJECT_ICON_NAMES[index] ?? 'folder';
}

/** Case-insensitive search of projects by name or id (spec 1 §2). */
export function matchesProjectSearch(
  project: { id: string; name: string },
  search: string,
): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return project.name.toLowerCase().includes(needle) || project.id.toLowerCase().includes(needle);
}

/** The applications the associated-pipelines screen offers (spec 1 §2). */
export const DEPLOYABLE_APPS = ['7zip', 'Google Chrome'] as const;
