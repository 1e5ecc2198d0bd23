/**
 * Bundle-size benchmark (issue 19): builds the SPA with a Vite manifest into a temporary folder and
 * reports, per entry, the gzipped JavaScript a browser loads for it: the HTML entry's static import
 * closure, and for each lazily loaded route the extra static closure it pulls in on top. The landing
 * line is what a visitor downloads before anyone signs in (entry + landing route).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { build } from 'vite';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface BundleBenchRow {
  entry: string;
  files: number;
  gzipKb: number;
  rawKb: number;
}

export interface BundleBenchResult {
  rows: BundleBenchRow[];
  landingGzipKb: number;
}

/** The landing page must stay under this much gzipped JavaScript (issue 19). */
export const LANDING_BUDGET_KB = 150;

const ROOT = path.resolve(import.meta.dirname, '../..');

function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(manifest, dep, into);
  return into;
}

function entryName(key: string): string {
  return key
    .replace(/^.*\/src\//, '')
    .replace(/\.(tsx?|html)$/, '')
    .replace(/^features\//, '');
}

export async function runBundleBench(): Promise<BundleBenchResult> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'aegis-bundle-'));
  try {
    await build({
      configFile: path.join(ROOT, 'apps/web/vite.config.ts'),
      logLevel: 'silent',
      build: { outDir, manifest: 'manifest.json', emptyOutDir: true },
    });
    const manifest = JSON.parse(
      await readFile(path.join(outDir, 'manifest.json'), 'utf8'),
    ) as Manifest;
    const sizes = new Map<string, { gzip: number; raw: number }>();
    const sizeOf = async (key: string) => {
      const known = sizes.get(key);
      if (known) return known;
      const file = manifest[key]?.file;
      if (!file?.endsWith('.js')) return { gzip: 0, raw: 0 };
      const bytes = await readFile(path.join(outDir, file));
      const size = { gzip: gzipSync(bytes, { level: 9 }).length, raw: bytes.length };
      sizes.set(key, size);
      return size;
    };
    const total = async (keys: Iterable<string>) => {
      let gzip = 0;
      let raw = 0;
      let files = 0;
      for (const key of keys) {
        const size = await sizeOf(key);
        if (size.raw === 0) continue;
        gzip += size.gzip;
        raw += size.raw;
        files += 1;
      }
      return { files, gzipKb: gzip / 1024, rawKb: raw / 1024 };
    };

    const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
    if (!entryKey) throw new Error('The build manifest has no entry');
    const initial = closure(manifest, entryKey);
    const rows: BundleBenchRow[] = [{ entry: 'index.html (initial)', ...(await total(initial)) }];
    let landingGzipKb = Number.NaN;
    const routes = Object.keys(manifest)
      .filter((k) => manifest[k]?.isDynamicEntry && /\/(features|app)\//.test(k))
      .sort();
    for (const key of routes) {
      const extra = [...closure(manifest, key)].filter((k) => !initial.has(k));
      const withInitial = await total(new Set([...initial, ...extra]));
      rows.push({ entry: `${entryName(key)} (+initial)`, ...withInitial });
      if (key.endsWith('features/landing/landing-page.tsx')) landingGzipKb = withInitial.gzipKb;
    }
    return { rows, landingGzipKb };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

export function printBundleBench(result: BundleBenchResult): void {
  console.log('\nBundle size (JavaScript a browser loads per entry, gzip level 9)');
  for (const row of result.rows) {
    console.log(
      `  ${row.entry.padEnd(58)} ${row.gzipKb.toFixed(1).padStart(7)} KB gzip  ${row.rawKb
        .toFixed(1)
        .padStart(8)} KB raw  ${String(row.files).padStart(3)} files`,
    );
  }
  const verdict = result.landingGzipKb < LANDING_BUDGET_KB ? 'within' : 'OVER';
  console.log(
    `  landing page before sign-in: ${result.landingGzipKb.toFixed(1)} KB gzip (${verdict} the ${LANDING_BUDGET_KB} KB budget)`,
  );
}
