/**
 * `npm run build` (ADR 053): what production runs, as JavaScript that plain `node` runs.
 * - the SPA (vite) into apps/web/dist;
 * - the server into apps/server/dist: Aegis's own packages bundled, the npm packages it depends
 *   on left as imports, resolved from a production install (`npm ci --omit=dev`);
 * - the pipeline tasks into packages/pipeline-tasks/dist/aegis-task.mjs: one file with everything
 *   in it, which an agent runs with Node.js alone.
 * `--only server|tasks|web` builds one of them (the task pipeline builds only the tasks).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { build as viteBuild } from 'vite';

const rootDir = path.resolve(import.meta.dirname, '..');
const log = (line: string): void => console.log(`[build] ${line}`);

export const SERVER_OUT_DIR = path.join(rootDir, 'apps/server/dist');
export const TASK_BUNDLE = path.join(rootDir, 'packages/pipeline-tasks/dist/aegis-task.mjs');

/** The lowest Node.js the bundles run on: the engines of package.json (ADR 053). */
const NODE_TARGET = 'node24';

// CommonJS packages inside an ES module bundle still call require() for Node's own modules.
const REQUIRE_SHIM = [
  "import { createRequire as __aegisCreateRequire } from 'node:module';",
  'const require = __aegisCreateRequire(import.meta.url);',
].join('\n');

/** Leaves every npm package an import (Aegis's own `@aegis/*` TypeScript is bundled). */
const npmPackagesExternal: Plugin = {
  name: 'npm-packages-external',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@aegis/') ? undefined : { path: args.path, external: true },
    );
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: NODE_TARGET,
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  absWorkingDir: rootDir,
} as const satisfies BuildOptions;

export async function buildServer(): Promise<Metafile> {
  const result = await build({
    ...common,
    // the fleet's worker threads load their entry beside the server's (ADR 044)
    entryPoints: {
      server: 'apps/server/src/server.ts',
      'fleet-summary-worker': 'apps/server/src/services/fleet-summary-worker.ts',
      // customer reports render on worker threads (ADR 072), their entry beside the server's too
      'customer-report-worker': 'apps/server/src/services/customer-report-worker.ts',
    },
    outdir: SERVER_OUT_DIR,
    outExtension: { '.js': '.mjs' },
    plugins: [npmPackagesExternal],
  });
  return result.metafile;
}

export async function buildTasks(): Promise<Metafile> {
  const result = await build({
    ...common,
    entryPoints: ['packages/pipeline-tasks/src/aegis-task.ts'],
    outfile: TASK_BUNDLE,
    banner: { js: REQUIRE_SHIM },
  });
  // The source's `#!/usr/bin/env -S npx tsx` is for the repository; the bundle needs node alone
  // (same line count, so the source map still holds).
  const text = await readFile(TASK_BUNDLE, 'utf8');
  await writeFile(TASK_BUNDLE, text.replace(/^#!.*/, '#!/usr/bin/env node'));
  return result.metafile;
}

/** The SPA into apps/web/dist, in this process (so that stopping `npm start` stops it too). */
export async function buildWeb(): Promise<void> {
  await viteBuild({ configFile: path.join(rootDir, 'apps/web/vite.config.ts'), logLevel: 'warn' });
}

const TARGETS = {
  web: buildWeb,
  server: buildServer,
  tasks: buildTasks,
} as const;
type Target = keyof typeof TARGETS;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const targets = values.only ? [values.only] : Object.keys(TARGETS);
  for (const target of targets) {
    if (!(target in TARGETS)) throw new Error(`--only takes ${Object.keys(TARGETS).join(', ')}`);
    const started = performance.now();
    await TARGETS[target as Target]();
    log(`${target} built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error(`[build] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
