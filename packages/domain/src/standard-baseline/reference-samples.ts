import type { ConfigFile } from '../comparison';

declare global {
  interface ImportMeta {
    glob: (pattern: string, options: { eager: true; import: 'default' }) => Record<string, unknown>;
  }
}

/**
 * Real public exports (MIT / CC0; provenance in fixtures/reference-samples/README.md) as config files (test-only helper: Vite's
 * import.meta.glob resolves it at test time; not exported from the package). Paths become `<Category>/<Kind>/<file>.json`.
 */
export function referenceSampleFiles(): ConfigFile[] {
  const modules = import.meta.glob('./fixtures/reference-samples/**/*.json', {
    eager: true,
    import: 'default',
  });
  return Object.entries(modules).map(([path, content]) => ({
    path: path.slice(path.indexOf('/reference-samples/') + '/reference-samples/'.length),
    content,
  }));
}
