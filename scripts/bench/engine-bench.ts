/**
 * Engine benchmark: a generated client of 1,000 policy files (~20 MB of JSON in the sample data's shapes), compared
 * with its baseline by the Aegis engine (whole compliance evaluation and the comparison rows) and, on the same pairs,
 * by microdiff and jsondiffpatch.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { buildComparisonRows, evaluateCompliance, textOf, type ConfigFile } from '@aegis/domain';
import { create } from 'jsondiffpatch';
import diff from 'microdiff';

let seed = 42;
const rnd = (): number => {
  seed = (seed * 1664525 + 1013904223) % 4294967296;
  return seed / 4294967296;
};
const guid = (): string =>
  'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, () =>
    Math.floor(rnd() * 16).toString(16),
  );

function conditionalAccess(i: number): Record<string, unknown> {
  return {
    '@odata.type': '#microsoft.graph.conditionalAccessPolicy',
    id: guid(),
    displayName: `CA${String(i).padStart(3, '0')}-Global-IdentityProtection-AnyApp-MFA`,
    createdDateTime: '2024-05-24T09:27:53.9288463Z',
    state: 'enabled',
    conditions: {
      clientAppTypes: ['all'],
      userRiskLevels: [],
      signInRiskLevels: ['high', 'medium'],
      applications: {
        includeApplications: ['All'],
        excludeApplications: [],
        includeUserActions: [],
      },
      users: {
        includeUsers: ['All'],
        excludeUsers: [guid()],
        includeRoles: [],
        excludeGroups: [guid(), guid()],
      },
      platforms: {
        includePlatforms: ['all'],
        excludePlatforms: ['android', 'iOS', 'windows', 'macOS'],
      },
      locations: { includeLocations: ['All'], excludeLocations: ['AllTrusted'] },
    },
    grantControls: { operator: 'OR', builtInControls: ['mfa'], authenticationStrength: null },
    sessionControls: { signInFrequency: { value: 4, type: 'hours', isEnabled: true } },
  };
}

function intuneConfiguration(i: number): Record<string, unknown> {
  return {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationPolicy',
    id: guid(),
    name: `Baseline - Windows - Settings ${i}`,
    description: 'Generated for the benchmark',
    platforms: 'windows10',
    technologies: 'mdm',
    templateReference: { templateId: '', templateFamily: 'none' },
    settings: Array.from({ length: 100 }, (_, k) => ({
      id: String(k),
      settingInstance: {
        '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingInstance',
        settingDefinitionId: `device_vendor_msft_policy_config_setting_${i}_${k}`,
        choiceSettingValue: {
          value: `device_vendor_msft_policy_config_setting_${i}_${k}_${k % 3}`,
          children: [{ settingDefinitionId: `child_${k}`, simpleSettingValue: { value: k * 7 } }],
        },
      },
    })),
  };
}

function exchangeObject(i: number): Record<string, unknown> {
  const o: Record<string, unknown> = {
    Identity: `Policy ${i}`,
    Name: `Policy ${i}`,
    Enabled: true,
    EnableMailboxIntelligence: true,
    EnableSpoofIntelligence: true,
    PhishThresholdLevel: 2,
    TargetedUsersToProtect: Array.from({ length: 60 }, (_, k) => `User ${k}; user${k}@contoso.com`),
    ExchangeVersion: '0.20 (15.0.0.0)',
    DistinguishedName: `CN=Policy ${i},CN=AntiPhish,CN=Transport Settings`,
    WhenChanged: '/Date(1723812853000)/',
    Guid: guid(),
  };
  for (let k = 0; k < 250; k++) o[`Setting${k}Enabled`] = k % 2 === 0 ? 'True' : false;
  return o;
}

/** Mutate a few leaves of a client copy. */
function drift(doc: unknown, rate: number): unknown {
  if (Array.isArray(doc)) return doc.map((d) => drift(d, rate));
  if (doc && typeof doc === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(doc)) out[k] = drift(v, rate);
    return out;
  }
  if (rnd() < rate)
    return typeof doc === 'number' ? doc + 1 : typeof doc === 'boolean' ? !doc : `${String(doc)}x`;
  return doc;
}

export interface GeneratedTree {
  baseline: ConfigFile[];
  client: ConfigFile[];
  bytes: number;
}

export function generateTrees(count = 1000): GeneratedTree {
  const baseline: ConfigFile[] = [];
  const client: ConfigFile[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const kind = i % 3;
    const [folder, doc] =
      kind === 0
        ? ['ConditionalAccess/Policy', conditionalAccess(i)]
        : kind === 1
          ? ['Intune/DeviceConfiguration', intuneConfiguration(i)]
          : ['Defender/AntiPhishPolicy', exchangeObject(i)];
    const path = `${folder}/policy-${i}.json`;
    // round-trip through text, as the engine receives parsed files
    const text = JSON.stringify(doc, null, 2);
    bytes += text.length;
    baseline.push({ path, content: JSON.parse(text) });
    if (i % 50 === 49) continue; // some policies missing from the client
    client.push({ path, content: drift(JSON.parse(text), i % 4 === 0 ? 0.02 : 0) });
  }
  return { baseline, client, bytes };
}

/** A callable that forces a full garbage collection, when the runtime lets us have one. */
function gcFunction(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0
    ? 0
    : s.length % 2
      ? (s[m] as number)
      : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

export interface BenchOptions {
  /** Untimed rounds first (JIT warm-up). */
  warmup?: number;
  /** Timed rounds; every round runs every tool once, in a rotating order. */
  rounds?: number;
  /** Number of policy files generated. */
  files?: number;
}

export interface EngineBenchRow {
  tool: string;
  /** Median wall time of one full pass over all pairs. */
  ms: number;
  /** Fastest pass. */
  minMs: number;
  mbPerSecond: number;
  /** Median over rounds of (this tool's time / microdiff's time in the same round). */
  ratioToMicrodiff: number;
}

export interface EngineBenchResult {
  name: string;
  files: number;
  megabytes: number;
  warmup: number;
  rounds: number;
  rows: EngineBenchRow[];
}

/**
 * Runs every tool over the same pairs. Rounds are interleaved (each round times every tool once, the order rotating
 * from round to round) and a full GC runs before each sample, so that machine noise and leftover garbage hit all
 * tools alike; figures are medians, and ratios are taken within a round before their median is taken.
 */
export function runEngineBench(options: BenchOptions = {}): EngineBenchResult {
  const warmup = options.warmup ?? 3;
  const rounds = options.rounds ?? 11;
  const { baseline, client, bytes } = generateTrees(options.files ?? 1000);
  const byPath = new Map(client.map((f) => [f.path, f.content]));
  const pairs = baseline.map((f) => [f.content, byPath.get(f.path) ?? {}] as const);
  const jdp = create({
    objectHash: (o: object, i?: number) => textOf((o as { id?: unknown }).id ?? i),
  });
  const mb = bytes / 1024 / 1024;
  let sink = 0; // keeps results observable so that no work is optimised away
  const tools: [string, () => void][] = [
    [
      'aegis evaluateCompliance',
      () => void (sink += evaluateCompliance(baseline, client).deviationCount),
    ],
    [
      'aegis buildComparisonRows',
      () => void (sink += Object.keys(buildComparisonRows(baseline, client)).length),
    ],
    [
      'microdiff',
      () => {
        for (const [a, b] of pairs)
          sink += diff(a as Record<string, unknown>, b as Record<string, unknown>).length;
      },
    ],
    [
      'jsondiffpatch',
      () => {
        for (const [a, b] of pairs) sink += jdp.diff(a, b) === undefined ? 0 : 1;
      },
    ],
  ];
  const gc = gcFunction();
  const samples = tools.map(() => [] as number[]);
  for (let r = 0; r < warmup + rounds; r++) {
    for (let j = 0; j < tools.length; j++) {
      const t = (j + r) % tools.length;
      const [, fn] = tools[t] as [string, () => void];
      gc?.();
      const start = performance.now();
      fn();
      const ms = performance.now() - start;
      if (r >= warmup) (samples[t] as number[]).push(ms);
    }
  }
  if (sink < 0) console.log(sink);
  const micro = samples[2] as number[];
  return {
    name: 'comparison engine (1,000 policy files)',
    files: baseline.length,
    megabytes: mb,
    warmup,
    rounds,
    rows: tools.map(([tool], t) => {
      const s = samples[t] as number[];
      const ms = median(s);
      return {
        tool,
        ms,
        minMs: Math.min(...s),
        mbPerSecond: mb / (ms / 1000),
        ratioToMicrodiff: median(s.map((x, i) => x / (micro[i] as number))),
      };
    }),
  };
}

export function printEngineBench(r: EngineBenchResult): void {
  console.log(
    `\n${r.name}: ${r.files} files, ${r.megabytes.toFixed(1)} MB of JSON; ${r.warmup} warm-up + ${r.rounds} timed rounds, interleaved, medians`,
  );
  console.log(
    `${'tool'.padEnd(28)}${'median ms'.padStart(11)}${'min ms'.padStart(9)}${'MB/s'.padStart(9)}${'× microdiff'.padStart(14)}`,
  );
  for (const row of r.rows)
    console.log(
      `${row.tool.padEnd(28)}${row.ms.toFixed(1).padStart(11)}${row.minMs.toFixed(1).padStart(9)}${row.mbPerSecond.toFixed(1).padStart(9)}${row.ratioToMicrodiff.toFixed(2).padStart(14)}`,
    );
}
