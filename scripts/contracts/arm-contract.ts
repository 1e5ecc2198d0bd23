// Extracts from Microsoft's ARM specifications (github.com/Azure/azure-rest-api-specs) exactly the
// operations Aegis calls (arm-calls.ts): path template, method, api-versions, the body properties
// a request must carry, long-running behaviour and success statuses. Writes
// packages/emulators/contracts/arm.json (ADR 058).
//
//   npx tsx scripts/contracts/arm-contract.ts [--specs <dir>] [--check]
//
// The repository is too large to clone here, so the files read are kept, trimmed to the path items
// and definitions of those operations, in scripts/contracts/arm-specs/ with their source commits
// (sources.json); --specs reads the same paths from another directory, e.g. a clone of the
// repository. --check compares instead of writing and exits 1 when the committed extract differs.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { format, resolveConfig } from 'prettier';

import { ARM_CALLS } from './arm-calls';
import { extractOperations, type ArmSpecFile } from './arm-openapi';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTPUT = join(ROOT, 'packages/emulators/contracts/arm.json');
const VENDORED = join(ROOT, 'scripts/contracts/arm-specs');

interface Sources {
  repository: string;
  files: { path: string; commit: string }[];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--specs');
  const specs = at >= 0 ? (args[at + 1] ?? '') : VENDORED;
  const sources = JSON.parse(await readFile(join(VENDORED, 'sources.json'), 'utf8')) as Sources;
  const files: ArmSpecFile[] = await Promise.all(
    sources.files.map(async ({ path, commit }) => ({
      path,
      commit,
      document: JSON.parse(await readFile(join(specs, path), 'utf8')) as Record<string, unknown>,
    })),
  );
  const operations = extractOperations(
    files,
    ARM_CALLS.map((call) => call.operationId),
  ).map((operation) => ({
    ...operation,
    usedBy: ARM_CALLS.find((call) => call.operationId === operation.operationId)?.usedBy,
  }));
  const contract = {
    $comment:
      "Extracted from Microsoft's ARM specifications by scripts/contracts/arm-contract.ts (ADR 058). Do not edit by hand: regenerate.",
    repository: sources.repository,
    operations,
  };
  // formatted as the repository's `prettier --check` expects
  const options = await resolveConfig(OUTPUT);
  const text = await format(JSON.stringify(contract), { ...options, filepath: OUTPUT });
  if (args.includes('--check')) {
    const committed = await readFile(OUTPUT, 'utf8').catch(() => '');
    if (committed !== text) {
      console.error(`${OUTPUT} differs from the ARM specifications: regenerate it`);
      process.exitCode = 1;
    } else {
      console.log(`${OUTPUT} is up to date`);
    }
    return;
  }
  await writeFile(OUTPUT, text);
  console.log(`wrote ${OUTPUT}`);
}

await main();
