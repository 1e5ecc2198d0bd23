import path from 'node:path';

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

async function ruleIdsFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? 'parse-error');
}

/** ARCHITECTURE §2: imports flow one way; the lint config must keep refusing the wrong direction. */
describe('import boundaries', () => {
  it('keeps the domain pure', async () => {
    const ids = await ruleIdsFor(
      'packages/domain/src/boundary-probe.ts',
      "import { readFileSync } from 'node:fs';\n\nexport const probe = readFileSync;\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });

  it('keeps the domain free of our other packages', async () => {
    const ids = await ruleIdsFor(
      'packages/domain/src/boundary-probe.ts',
      "import { buildApp } from '@aegis/server';\n\nexport const probe = buildApp;\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });

  it('keeps the server away from the emulators', async () => {
    const ids = await ruleIdsFor(
      'apps/server/src/boundary-probe.ts',
      "import { seedDevOps } from '@aegis/emulators';\n\nexport const probe = seedDevOps;\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });

  it('keeps the pipeline tasks away from the emulators', async () => {
    const ids = await ruleIdsFor(
      'packages/pipeline-tasks/src/boundary-probe.ts',
      "import { seedDevOps } from '@aegis/emulators';\n\nexport const probe = seedDevOps;\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });

  it('keeps the browser away from the connectors', async () => {
    const ids = await ruleIdsFor(
      'apps/web/src/lib/boundary-probe.ts',
      "import { DevOpsClient } from '@aegis/connectors/devops';\n\nexport const probe = DevOpsClient;\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });

  it('stops web features importing each other', async () => {
    const ids = await ruleIdsFor(
      'apps/web/src/features/projects/boundary-probe.ts',
      "import { ClientPipelinesPage } from '../pipelines/client-pipelines-page';\n\nexport const probe = ClientPipelinesPage;\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('rejects deep imports into another package', async () => {
    const ids = await ruleIdsFor(
      'apps/server/src/boundary-probe.ts',
      "import { parseClientCode } from '@aegis/domain/src/clients';\n\nexport const probe = parseClientCode;\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });
});
