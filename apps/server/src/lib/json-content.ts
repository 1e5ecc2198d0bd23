import type { ConfigFile } from '@aegis/domain';

/** A file's JSON content (a BOM tolerated), null when the text is not JSON. */
export function jsonContent(text: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch {
    return null;
  }
}

/** A file of the repository as read from an archive: its repository path and its bytes. */
export interface RawFile {
  path: string;
  bytes: Uint8Array;
}

const utf8 = new TextDecoder();

/** A configuration file from its bytes (UTF-8 JSON; content null when not JSON). */
export function configFileOf(file: RawFile): ConfigFile {
  return { path: file.path, content: jsonContent(utf8.decode(file.bytes)) };
}
