// The ARM extract as text (ADR 058): the operations of arm-calls.ts read from the specification
// files named in arm-specs/sources.json, under `specsDir` (the vendored trimmed copies, or a clone
// of Azure/azure-rest-api-specs), formatted as the repository's prettier writes JSON.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { format, resolveConfig } from 'prettier';

import { ARM_CALLS } from './arm-calls';
import { extractOperations, type ArmSpecFile } from './arm-openapi';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ARM_CONTRACT_OUTPUT = join(ROOT, 'packages/emulators/contracts/arm.json');
export const VENDORED_ARM_SPECS = join(ROOT, 'scripts/contracts/arm-specs');

interface Sources {
  repository: string;
  files: { path: string; commit: string }[];
}

export async function armContractText(specsDir: string): Promise<string> {
  const sources = JSON.parse(
    await readFile(join(VENDORED_ARM_SPECS, 'sources.json'), 'utf8'),
  ) as Sources;
  const files: ArmSpecFile[] = await Promise.all(
    sources.files.map(async ({ path, commit }) => ({
      path,
      commit,
      document: JSON.parse(await readFile(join(specsDir, path), 'utf8')) as Record<string, unknown>,
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
  const options = await resolveConfig(ARM_CONTRACT_OUTPUT);
  return format(JSON.stringify(contract), { ...options, filepath: ARM_CONTRACT_OUTPUT });
}
