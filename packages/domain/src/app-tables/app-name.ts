// An app's name travels from the table into the client's pipeline YAML (the AppList default) and
// from there to the deployment script; names are kept to the characters a product name needs so
// that no quote, $, backtick or separator reaches YAML or PowerShell (issue 26, ADR 056).

/** Letters, digits, space and . _ - + ( ), starting with a letter or digit. */
export const APP_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._+()-]*$/;
export const MAX_APP_NAME_LENGTH = 128;

export const APP_NAME_RULE = `must be at most ${MAX_APP_NAME_LENGTH} letters, digits, spaces or . _ - + ( ), starting with a letter or digit`;

/** Why an app name would be refused, or undefined when it is fine. */
export function appNameProblem(name: string): string | undefined {
  if (name.length > MAX_APP_NAME_LENGTH || !APP_NAME_PATTERN.test(name)) return APP_NAME_RULE;
  return undefined;
}

export function isAppName(name: string): boolean {
  return appNameProblem(name) === undefined;
}
