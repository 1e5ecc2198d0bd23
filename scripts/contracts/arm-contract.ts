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

import { ARM_CONTRACT_OUTPUT, VENDORED_ARM_SPECS, armContractText } from './arm-extract';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--specs');
  const text = await armContractText(at >= 0 ? (args[at + 1] ?? '') : VENDORED_ARM_SPECS);
  if (args.includes('--check')) {
    const committed = await readFile(ARM_CONTRACT_OUTPUT, 'utf8').catch(() => '');
    if (committed !== text) {
      console.error(`${ARM_CONTRACT_OUTPUT} differs from the ARM specifications: regenerate it`);
      process.exitCode = 1;
    } else {
      console.log(`${ARM_CONTRACT_OUTPUT} is up to date`);
    }
    return;
  }
  await writeFile(ARM_CONTRACT_OUTPUT, text);
  console.log(`wrote ${ARM_CONTRACT_OUTPUT}`);
}

await main();
