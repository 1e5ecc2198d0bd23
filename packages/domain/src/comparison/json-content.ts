/** A file's JSON content (a leading BOM tolerated), null when the text is not JSON. */
export function jsonContent(text: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch {
    return null;
  }
}
