// The committed ARM extract is what its vendored inputs give (ADR 058): editing arm.json by hand,
// or the inputs or arm-calls.ts without regenerating, fails here.
import { readFile } from 'node:fs/promises';

import { describe, expect, it } from 'vitest';

import { ARM_CONTRACT_OUTPUT, VENDORED_ARM_SPECS, armContractText } from './arm-extract';

describe('packages/emulators/contracts/arm.json', () => {
  it('is the extract of the vendored specification files', async () => {
    const committed = await readFile(ARM_CONTRACT_OUTPUT, 'utf8');
    expect(committed).toBe(await armContractText(VENDORED_ARM_SPECS));
  });
});
