// Extracts from Microsoft's published cmdlet reference (github.com/MicrosoftDocs/office-docs-powershell)
// exactly what Aegis calls through the Exchange Online admin API and the Teams admin configuration
// service: for each Get-/Set-/New-/Remove- cmdlet of the workloads of those services (and
// Enable-OrganizationCustomization), the parameter sets and the parameters it accepts (for
// Exchange, those applicable to Exchange Online), each with its type, its parameter sets and the
// sets it is required in; cmdlets Microsoft does not publish are listed as missing. A property of
// a cmdlet's output that is not a parameter of its Set-/New- cmdlet is read-only.
// Writes packages/connectors/src/microsoft-contracts/{exchange,teams}-cmdlets.json (ADR 049).
//
//   npx tsx scripts/contracts/cmdlet-contract.ts [--reference <git dir of office-docs-powershell>] [--check]
//
// --check compares instead of writing and exits 1 when a committed extract differs.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { CmdletContract, CmdletParameter } from '@aegis/connectors/microsoft-contracts';
import { TENANT_WORKLOADS } from '@aegis/domain';
import { format, resolveConfig } from 'prettier';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTPUT_DIR = join(ROOT, 'packages/connectors/src/microsoft-contracts');
const DEFAULT_REFERENCE = '/work/.mirror/MicrosoftDocs+office-docs-powershell/repo';
const SOURCE_REPO = 'https://github.com/MicrosoftDocs/office-docs-powershell';

/** Cmdlets Aegis calls besides the Get-/Set-/New-/Remove- of its workloads. */
const EXTRA_CMDLETS: Readonly<Record<'exchange' | 'teams', readonly string[]>> = {
  exchange: ['Enable-OrganizationCustomization', 'Search-UnifiedAuditLog'],
  teams: [],
};

const SERVICES = {
  exchange: {
    folder: 'exchange/exchange-ps/ExchangePowerShell',
    applicableTo: 'Exchange Online',
    output: 'exchange-cmdlets.json',
    name: 'Exchange Online (and Defender for Office 365) through the Exchange Online admin API',
  },
  teams: {
    folder: 'teams/teams-ps/MicrosoftTeams',
    applicableTo: undefined,
    output: 'teams-cmdlets.json',
    name: 'Microsoft Teams through the Teams admin configuration service',
  },
} as const;

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function fileAt(dir: string, commit: string, path: string): string | undefined {
  try {
    return git(dir, 'show', `${commit}:${path}`);
  } catch {
    return undefined;
  }
}

/** The section of a markdown document under a `## ` heading, up to the next one. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) return '';
  const rest = text.slice(start + heading.length + 5);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

export function parseCmdletReference(
  text: string,
  path: string,
  applicableTo: string | undefined,
): CmdletContract | undefined {
  const applicable = /^applicable:\s*(.*)$/m.exec(text.split('\n---', 1)[0] ?? '')?.[1];
  if (applicableTo && applicable && !applicable.includes(applicableTo)) return undefined;
  const syntaxSets = [...section(text, 'SYNTAX').matchAll(/^### (\S+)/gm)].map((m) => m[1]!);
  const parameters: Record<string, CmdletParameter> = {};
  const blocks = section(text, 'PARAMETERS')
    .split(/^### -/m)
    .slice(1);
  for (const block of blocks) {
    const name = block.split(/\s/, 1)[0]!;
    const applicableLine = /^> Applicable:\s*(.*)$/m.exec(block)?.[1];
    if (applicableTo && applicableLine && !applicableLine.includes(applicableTo)) continue;
    const parameter: CmdletParameter = { type: '', sets: [], requiredIn: [] };
    for (const yaml of block.matchAll(/```yaml\n([\s\S]*?)```/g)) {
      const field = (key: string) =>
        new RegExp(`^${key}:\\s*(.*)$`, 'm').exec(yaml[1]!)?.[1]?.trim();
      const sets = (field('Parameter Sets') ?? '(All)')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      parameter.type ||= field('Type') ?? '';
      for (const set of sets) if (!parameter.sets.includes(set)) parameter.sets.push(set);
      if (field('Required')?.toLowerCase().startsWith('true')) {
        for (const set of sets)
          if (!parameter.requiredIn.includes(set)) parameter.requiredIn.push(set);
      }
    }
    if (parameter.sets.length === 0) parameter.sets.push('(All)');
    parameters[name] = parameter;
  }
  const namedSets = new Set(syntaxSets);
  for (const parameter of Object.values(parameters)) {
    for (const set of parameter.sets) if (set !== '(All)') namedSets.add(set);
  }
  return {
    path,
    parameterSets: [...namedSets].sort(),
    parameters: Object.fromEntries(
      Object.entries(parameters).sort(([a], [b]) => a.localeCompare(b)),
    ),
  };
}

function cmdletsOf(service: 'exchange' | 'teams'): string[] {
  const names = new Set<string>();
  for (const workload of TENANT_WORKLOADS) {
    if (workload.transport !== 'adminCommand' || workload.service !== service) continue;
    const { noun } = workload;
    for (const verb of ['Get', 'Set', 'New', 'Remove']) names.add(`${verb}-${noun}`);
  }
  for (const extra of EXTRA_CMDLETS[service]) names.add(extra);
  return [...names].sort();
}

async function main(): Promise<void> {
  const reference = argument('--reference') ?? DEFAULT_REFERENCE;
  const check = process.argv.includes('--check');
  const commit = git(reference, 'rev-parse', 'HEAD').trim();
  const committed = git(reference, 'log', '-1', '--format=%cI', commit).trim();
  let differs = false;
  for (const service of ['exchange', 'teams'] as const) {
    const settings = SERVICES[service];
    const cmdlets: Record<string, CmdletContract> = {};
    const missing: string[] = [];
    for (const name of cmdletsOf(service)) {
      const path = `${settings.folder}/${name}.md`;
      const text = fileAt(reference, commit, path);
      const parsed = text ? parseCmdletReference(text, path, settings.applicableTo) : undefined;
      if (parsed) cmdlets[name] = parsed;
      else missing.push(name);
    }
    const extract = {
      $comment: `Extracted from Microsoft's cmdlet reference by scripts/contracts/cmdlet-contract.ts (ADR 049). Do not edit by hand: regenerate.`,
      repository: SOURCE_REPO,
      commit,
      committed,
      service: settings.name,
      ...(settings.applicableTo ? { applicableTo: settings.applicableTo } : {}),
      cmdlets,
      missing,
    };
    const file = join(OUTPUT_DIR, settings.output);
    const text = await format(JSON.stringify(extract), {
      ...(await resolveConfig(file)),
      filepath: file,
    });
    if (check) {
      const current = await readFile(file, 'utf8').catch(() => '');
      if (current !== text) {
        differs = true;
        console.error(`${settings.output} differs from Microsoft's reference at ${commit}`);
      }
    } else {
      await writeFile(file, text);
      console.log(
        `${settings.output}: ${Object.keys(cmdlets).length} cmdlets, missing ${missing.join(', ') || 'none'}`,
      );
    }
  }
  if (differs) process.exitCode = 1;
}

await main();
