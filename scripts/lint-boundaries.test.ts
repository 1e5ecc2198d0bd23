import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });
/** Type-aware rules build a package's TypeScript program on its first probe: slow on a busy box. */
const LINT_TIMEOUT_IN_MS = 180_000;

/**
 * The rules that fire on `code` as the file `file`. The file is written for the moment it is linted:
 * type-aware rules need the TypeScript project to find it on disk.
 */
async function ruleIdsFor(file: string, code: string): Promise<string[]> {
  const filePath = path.join(root, file);
  await mkdir(path.dirname(filePath), { recursive: true });
  await writeFile(filePath, code, { flag: 'wx' });
  try {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).map((message) => message.ruleId ?? 'parse-error');
  } finally {
    await rm(filePath);
  }
}

/** ARCHITECTURE §2: imports flow one way; the lint config must keep refusing the wrong direction. */
describe('import boundaries', { timeout: LINT_TIMEOUT_IN_MS }, () => {
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

/** ADR 052: git has one door, the configuration repository. */
describe('the git door', { timeout: LINT_TIMEOUT_IN_MS }, () => {
  const devopsGit = [
    "import type { DevOpsApi } from '@aegis/connectors/devops';",
    '',
    'export async function probe(devops: DevOpsApi): Promise<string> {',
    "  const refs = await devops.listRefs({ project: 'p', repository: 'r' }, 'heads/main');",
    "  return refs[0]?.commitId ?? '';",
    '}',
    '',
  ].join('\n');

  it("refuses the DevOps client's git methods outside the repository", async () => {
    const ids = await ruleIdsFor('apps/server/src/services/git-probe.ts', devopsGit);
    expect(ids).toContain('aegis/git-through-repository');
  });

  it('refuses them on the client class too, whatever the variable is called', async () => {
    const ids = await ruleIdsFor(
      'packages/pipeline-tasks/src/git-probe.ts',
      [
        "import { DevOpsClient } from '@aegis/connectors/devops';",
        '',
        'export function probe(client: DevOpsClient) {',
        "  return client.push({ project: 'p', repository: 'r' }, { branch: 'main', oldObjectId: '', commits: [] });",
        '}',
        '',
      ].join('\n'),
    );
    expect(ids).toContain('aegis/git-through-repository');
  });

  it('lets the repository call them, and lets other code push to arrays', async () => {
    expect(
      await ruleIdsFor('packages/connectors/src/repository/git-probe.ts', devopsGit),
    ).not.toContain('aegis/git-through-repository');
    const ids = await ruleIdsFor(
      'apps/server/src/services/git-probe.ts',
      "export function probe(lines: string[]): number {\n  return lines.push('x');\n}\n",
    );
    expect(ids).toEqual([]);
  });
});

/** Issue 31 item 7: lint keeps one owner per module and a declared dependency per import. */
describe('module hygiene', { timeout: LINT_TIMEOUT_IN_MS }, () => {
  it('refuses an import cycle', async () => {
    // the other half of the cycle must be on disk while the first is linted
    const other = path.join(root, 'packages/domain/src/cycle-probe-b.ts');
    await writeFile(
      other,
      "import { a } from './cycle-probe-a';\n\nexport const b = (): number => a() + 1;\n",
      { flag: 'wx' },
    );
    try {
      const ids = await ruleIdsFor(
        'packages/domain/src/cycle-probe-a.ts',
        "import { b } from './cycle-probe-b';\n\nexport const a = (): number => b() - 1;\n",
      );
      expect(ids).toContain('import-x/no-cycle');
    } finally {
      await rm(other);
    }
  });

  it('refuses a package its own package.json does not declare', async () => {
    // jsondiffpatch is a root devDependency, so it resolves, but the domain does not declare it
    const ids = await ruleIdsFor(
      'packages/domain/src/dependency-probe.ts',
      "import { create } from 'jsondiffpatch';\n\nexport const probe = create;\n",
    );
    expect(ids).toContain('import-x/no-extraneous-dependencies');
  });
});

/** Issue 31 item 7: type-aware rules catch what plain lint cannot see. */
describe('type-aware rules', { timeout: LINT_TIMEOUT_IN_MS }, () => {
  it('refuses an unawaited promise, an async callback for a void one, awaiting a non-promise and a needless cast', async () => {
    const ids = await ruleIdsFor(
      'apps/server/src/services/typed-probe.ts',
      [
        'async function save(): Promise<void> {}',
        '',
        'export async function probe(names: string[]): Promise<number> {',
        '  save();',
        '  names.forEach(async () => save());',
        '  const count = await names.length;',
        '  return (count as number) + 1;',
        '}',
        '',
      ].join('\n'),
    );
    expect(ids).toEqual(
      expect.arrayContaining([
        '@typescript-eslint/no-floating-promises',
        '@typescript-eslint/no-misused-promises',
        '@typescript-eslint/await-thenable',
        '@typescript-eslint/no-unnecessary-type-assertion',
      ]),
    );
  });

  it('refuses the rest of recommendedTypeChecked: an any read, a needless async, an unbound method, an object as text', async () => {
    const ids = await ruleIdsFor(
      'apps/server/src/services/typed-probe.ts',
      [
        'class Counter {',
        '  count = 0;',
        '  increment(): void {',
        '    this.count += 1;',
        '  }',
        '}',
        '',
        'export async function probe(raw: string, counter: Counter): Promise<string> {',
        '  const parsed = JSON.parse(raw);',
        '  const step = counter.increment;',
        '  step();',
        '  return `${parsed.name}: ${String({})}`;',
        '}',
        '',
      ].join('\n'),
    );
    expect(ids).toEqual(
      expect.arrayContaining([
        '@typescript-eslint/no-unsafe-assignment',
        '@typescript-eslint/no-unsafe-member-access',
        '@typescript-eslint/require-await',
        '@typescript-eslint/unbound-method',
        '@typescript-eslint/no-base-to-string',
      ]),
    );
  });

  it('lets awaited promises and needed casts pass', async () => {
    const ids = await ruleIdsFor(
      'apps/server/src/services/typed-probe.ts',
      [
        'function save(): Promise<void> {',
        '  return Promise.resolve();',
        '}',
        '',
        'export async function probe(value: unknown): Promise<number> {',
        '  await save();',
        '  return (value as number) + 1;',
        '}',
        '',
      ].join('\n'),
    );
    expect(ids).toEqual([]);
  });
});

interface KnipFileIssues {
  file: string;
  exports: { name: string }[];
}

/** knip's findings for one workspace, as its JSON reporter writes them (it exits 1 when it finds any). */
async function knipIssues(workspace: string): Promise<KnipFileIssues[]> {
  const knip = path.join(root, 'node_modules/.bin/knip');
  const args = ['--no-progress', '--workspace', workspace, '--reporter', 'json'];
  const stdout = await promisify(execFile)(knip, args, { cwd: root }).then(
    (result) => result.stdout,
    (error: { stdout?: string }) => error.stdout ?? '',
  );
  return (JSON.parse(stdout) as { issues: KnipFileIssues[] }).issues;
}

/** Issue 31 item 7: `npm run lint` runs knip, which refuses code nothing uses. */
describe('unused code', { timeout: LINT_TIMEOUT_IN_MS }, () => {
  const probes = {
    // the test file is an entry (knip's Vitest plugin) that imports one of the two exports
    exporter: 'packages/domain/src/knip-probe.ts',
    importer: 'packages/domain/src/knip-probe.test.ts',
    orphan: 'packages/domain/src/knip-orphan-probe.ts',
  };
  let issues: KnipFileIssues[] = [];

  beforeAll(async () => {
    await writeFile(
      path.join(root, probes.exporter),
      'export const usedProbe = 1;\nexport const unusedProbe = 2;\n',
      { flag: 'wx' },
    );
    await writeFile(
      path.join(root, probes.importer),
      "import { usedProbe } from './knip-probe';\n\nexport const value = usedProbe;\n",
      { flag: 'wx' },
    );
    await writeFile(path.join(root, probes.orphan), 'export const orphan = 1;\n', { flag: 'wx' });
    issues = await knipIssues('packages/domain');
  }, LINT_TIMEOUT_IN_MS);

  afterAll(async () => {
    await Promise.all(
      Object.values(probes).map((file) => rm(path.join(root, file), { force: true })),
    );
  });

  it('refuses an export nothing imports, and only that one', () => {
    const exporter = issues.find((issue) => issue.file === probes.exporter);
    expect(exporter?.exports.map((entry) => entry.name)).toEqual(['unusedProbe']);
  });

  it('refuses a file nothing imports', () => {
    expect(issues.map((issue) => issue.file)).toContain(probes.orphan);
  });
});
