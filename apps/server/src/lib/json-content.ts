import type { RawFile } from '@aegis/connectors/repository';
import { jsonContent, type ConfigFile } from '@aegis/domain';

const utf8 = new TextDecoder();

/** A configuration file from its bytes (UTF-8 JSON; content null when not JSON). */
export function configFileOf(file: RawFile): ConfigFile {
  return { path: file.path, content: jsonContent(utf8.decode(file.bytes)) };
}
