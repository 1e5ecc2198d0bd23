import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

import type { ConfigFile } from '@aegis/domain';

/** Read every .json file under a resources root; invalid JSON gives `content: null`. */
export async function readConfigTree(root: string): Promise<ConfigFile[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json'));
  return Promise.all(
    files.map(async (e) => {
      const full = join(e.parentPath, e.name);
      const text = await readFile(full, 'utf8');
      let content: unknown = null;
      try {
        content = JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch {
        content = null;
      }
      return { path: relative(root, full).split(sep).join('/'), content };
    }),
  );
}
