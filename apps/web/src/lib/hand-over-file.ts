/**
 * How long a handed-over file's object URL lives: a save or a new tab reads it at once, but a tab
 * opened in the background may start loading late, and revoking early would leave it blank.
 */
export const OBJECT_URL_LIFETIME_MS = 60_000;

/**
 * Hands a file the portal holds to the browser, through a temporary link: saved to the user's
 * downloads under `fileName`, or opened in a new tab (a PDF preview).
 */
export function handOverFile(blob: Blob, how: { saveAs: string } | 'new-tab'): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  if (how === 'new-tab') link.target = '_blank';
  else link.download = how.saveAs;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
}
