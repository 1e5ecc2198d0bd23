// Golden tests of the comparison engine on the sample clients: the expectations are derived from the
// deviations each client declares in the seed (sample-config.ts), not from snapshots of the engine's output.
// A declared change is replayed on a fresh copy of the client's policy and diffed with microdiff (an
// independent, positional diff); the engine must report exactly those properties, plus the few values that
// legitimately differ between tenants (their domain, code and IP), and nothing else once the volatile fields
// (ids, timestamps, Exchange identity and the like) are set aside.
import {
  DEFAULT_EXCLUDED_PROPERTIES,
  MISSING,
  applyMatches,
  autoMatches,
  buildComparisonRows,
  clientLayersPath,
  clientParametersPath,
  effectiveBaseline,
  evaluateCompliance,
  layerResourcesRoot,
  parseClientLayers,
  parseTenantParameters,
  substituteParameters,
  findUnmatchedPolicies,
  policyPasses,
  runStandardBaseline,
  type ComplianceData,
  type ConfirmedMatch,
  type ConfigFile,
  type DeviationGroup,
} from '@aegis/domain';
import diff from 'microdiff';
import { describe, expect, it } from 'vitest';

import { policyKey, type Json, type JsonObject, type PolicyDef } from './policies/types';
import {
  BASELINE_CONTEXT,
  RESOURCES_ROOT,
  SAMPLE_CLIENTS,
  baselinePolicies,
  generateSampleConfigRepo,
  layerChangesFor,
  renderJson,
  type Deviation,
  type SampleClient,
} from './sample-config';
import { sampleParametersOf, tenantContext, type TenantContext } from './tenant-context';

const repo = generateSampleConfigRepo();
const NEVER_COMPARED = new Set([
  'descriptions',
  'office365',
  'powerplatform',
  'securitycompliance',
]);

/** The files under one resources root, as the CLI and the server hand them to the engine. */
function tree(root: string): ConfigFile[] {
  const prefix = `${root}/`;
  return [...repo]
    .filter(([p]) => p.startsWith(prefix) && p.endsWith('.json'))
    .map(([p, text]) => ({ path: p.slice(prefix.length), content: JSON.parse(text) as unknown }));
}

const baselineFiles = tree(RESOURCES_ROOT);
const comparedBaseline = baselineFiles.filter(
  (f) => !NEVER_COMPARED.has((f.path.split('/')[0] ?? '').toLowerCase()),
);

/** A client's effective baseline (ADR 068) from the repository's files, as the server reads it. */
function baselineOf(code: string): ConfigFile[] {
  const json = (path: string): unknown => {
    const text = repo.get(path.slice(1));
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  };
  const layers = parseClientLayers(json(clientLayersPath(code))).map((name) => ({
    name,
    files: tree(layerResourcesRoot(name).slice(1)),
  }));
  const parameters = parseTenantParameters(json(clientParametersPath(code)));
  const effective = effectiveBaseline(baselineFiles, layers, parameters);
  expect(effective.missing).toEqual([]);
  return effective.files;
}

// ---- an independent statement of the rules the expectations need ----

const VOLATILE = new Set(DEFAULT_EXCLUDED_PROPERTIES.map((p) => p.toLowerCase()));
/** A path is volatile when one of its property names is a default excluded property or an OData annotation. */
const isVolatile = (path: readonly (string | number)[]): boolean =>
  path.some(
    (s) => typeof s === 'string' && (VOLATILE.has(s.toLowerCase()) || s.includes('@odata.')),
  );

/** `a.b[3].c` → `a.b[].c`; the engine's `[name=X]` and `[2]` selectors normalise the same way. */
const shape = (path: readonly (string | number)[]): string =>
  path.map((s, i) => (typeof s === 'number' ? '[]' : i === 0 ? s : `.${s}`)).join('');
const engineShape = (property: string): string => property.replace(/\[[^\]]*\]/g, '[]');

/** Leaf-level differences between two documents, volatile fields set aside, as `shape → client values`. */
function expectedChanges(before: Json, after: Json): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const d of diff(before as JsonObject, after as JsonObject)) {
    if (isVolatile(d.path)) continue;
    const key = shape(d.path);
    const values = out.get(key) ?? [];
    if (d.type !== 'REMOVE') values.push(d.value);
    out.set(key, values);
  }
  return out;
}

const render = (d: PolicyDef, ctx: TenantContext, apply: Deviation[] = []): Json => {
  const policy = d.build(ctx);
  for (const dev of apply) if (dev.kind === 'change' || dev.kind === 'reordered') dev.apply(policy);
  return JSON.parse(renderJson(policy, ctx)) as Json;
};

/** The policies whose values are tenant-specific by nature, and the only properties that differ. */
const TENANT_SPECIFIC: Record<string, string[]> = {
  'ConditionalAccess/NamedLocation/Head Office': ['ipRanges[].cidrAddress'],
  'Defender/MalwareFilterPolicy/Default': ['InternalSenderAdminAddress'],
  'Defender/SafeAttachmentRule/Baseline Safe Attachments Rule': ['RecipientDomainIs[]'],
  'Defender/SafeLinksRule/Baseline Safe Links Rule': ['RecipientDomainIs[]'],
  'Exchange/HostedOutboundSpamFilterPolicy/Default': ['NotifyOutboundSpamRecipients[]'],
  'Intune/WindowsAutopilotDeploymentProfile/Autopilot - User Driven': ['deviceNameTemplate'],
};

interface Expectation {
  missing: Set<string>;
  clientOnly: Set<string>;
  /** baseline path → expected deviation shapes → client values the declared changes set */
  modified: Map<string, Map<string, unknown[]>>;
  /** baseline path → declared shapes (a subset of `modified`) */
  declared: Map<string, Map<string, unknown[]>>;
  renamed: { baselinePath: string; clientPath: string; clientName: string }[];
}

const ctxOf = (c: SampleClient): TenantContext => tenantContext(c.code, c.name, c.domainPrefix);
const declaredOf = (c: SampleClient): Deviation[] => [...c.initial, ...c.later];

function expectationFor(client: SampleClient): Expectation {
  const ctx = ctxOf(client);
  const declared = declaredOf(client);
  const gone = new Set(
    declared.flatMap((d) => (d.kind === 'missing' || d.kind === 'renamed' ? [d.key] : [])),
  );
  const e: Expectation = {
    missing: new Set([...gone].map((k) => `${k}.json`)),
    clientOnly: new Set(),
    modified: new Map(),
    declared: new Map(),
    renamed: [],
  };
  for (const d of declared) {
    if (d.kind === 'clientOnly') e.clientOnly.add(`${policyKey(d.def)}.json`);
    if (d.kind === 'renamed') {
      const folder = d.key.slice(0, d.key.lastIndexOf('/'));
      e.clientOnly.add(`${folder}/${d.name}.json`);
      e.renamed.push({
        baselinePath: `${d.key}.json`,
        clientPath: `${folder}/${d.name}.json`,
        clientName: d.name,
      });
    }
  }
  for (const d of baselinePolicies) {
    const key = policyKey(d);
    if (declared.some((x) => x.kind === 'missing' && x.key === key)) continue;
    const own = declared.filter(
      (x) => (x.kind === 'change' || x.kind === 'reordered') && x.key === key,
    );
    // the client's copy holds its layers' values; its baseline is the layered one, parameters in
    const layered = layerChangesFor(client, key);
    const plain = render(d, ctx, layered);
    const changes = own.length
      ? expectedChanges(plain, render(d, ctx, [...layered, ...own]))
      : new Map<string, unknown[]>();
    if (changes.size) e.declared.set(`${key}.json`, changes);
    if (gone.has(key)) continue; // renamed: compared only once matched
    const baseline = substituteParameters(
      render(d, BASELINE_CONTEXT, layered),
      sampleParametersOf(ctx),
    ).content as Json;
    const tenant = expectedChanges(baseline, plain);
    const all = new Map([...tenant, ...changes]);
    if (all.size) e.modified.set(`${key}.json`, all);
  }
  return e;
}

const deviationShapes = (g: DeviationGroup): Set<string> =>
  new Set(g.deviations.map((d) => engineShape(d.property)));

describe.each(SAMPLE_CLIENTS.map((c) => [c.code, c] as const))(
  'sample client %s against the company baseline',
  (code, client) => {
    const clientFiles = tree(`Clients/${code}/${RESOURCES_ROOT}`);
    const expected = expectationFor(client);
    const clientBaseline = baselineOf(code);
    const data = evaluateCompliance(clientBaseline, clientFiles);
    const groups = new Map(data.deviations.map((g) => [g.path, g]));
    const rows = buildComparisonRows(clientBaseline, clientFiles);

    it('declares deviations that each alter the client copy (so there is something to detect)', () => {
      const declared = declaredOf(client);
      const noOps = declared.filter(
        (d) =>
          (d.kind === 'change' || d.kind === 'reordered') &&
          !expected.declared.has(`${d.key}.json`),
      );
      expect(declared.length).toBeGreaterThan(0);
      expect(noOps.map((d) => d.note)).toEqual([]);
    });

    it('reports exactly the declared missing policies (renamed ones included), critical or prerequisite', () => {
      const missing = data.deviations.filter((g) => g.changeType === 'missing');
      const actual = missing.map((g) => ({
        path: g.path,
        isMissing: g.isMissing,
        severity: g.highestSeverity,
        clientValues: g.deviations.map((d) => d.clientValue),
      }));
      const wanted = [...expected.missing].sort().map((path) => ({
        path,
        isMissing: true,
        // prerequisite locations (spec 1 §5): the MaintenanceConfiguration folder, singular accepted
        severity: path.includes('/MaintenanceConfiguration/') ? 'prerequisite' : 'critical',
        clientValues: [MISSING],
      }));
      expect(actual.sort((a, b) => a.path.localeCompare(b.path))).toEqual(wanted);
      const prerequisites = wanted.filter((w) => w.severity === 'prerequisite').length;
      expect(data.prerequisiteCount).toBe(prerequisites);
      expect(data.missingPoliciesCount).toBe(wanted.length - prerequisites);
    });

    it('lists exactly the declared client-only policies (and renamed copies) as client-only', () => {
      expect(new Set(data.clientOnlyPolicies.map((p) => p.path))).toEqual(expected.clientOnly);
    });

    it('detects every declared change, with the value the client holds', () => {
      const missed: string[] = [];
      for (const [path, changes] of expected.declared) {
        if (expected.missing.has(path)) continue; // renamed, see the matching test
        const g = groups.get(path);
        for (const [s, values] of changes) {
          const found = (g?.deviations ?? []).filter((d) => engineShape(d.property) === s);
          if (g?.changeType !== 'modified' || found.length === 0) missed.push(`${path} ${s}`);
          for (const v of values)
            if ((typeof v !== 'object' || v === null) && !found.some((d) => d.clientValue === v))
              missed.push(`${path} ${s} = ${JSON.stringify(v)}`);
        }
      }
      expect(expected.declared.size).toBeGreaterThan(0);
      expect(missed).toEqual([]);
    });

    it('reports nothing undeclared: only declared changes and the tenant-specific values differ', () => {
      const actual = Object.fromEntries(
        data.deviations
          .filter((g) => !g.isMissing)
          .map((g) => [g.path, [...deviationShapes(g)].sort()]),
      );
      const wanted = Object.fromEntries(
        [...expected.modified].map(([path, changes]) => [path, [...changes.keys()].sort()]),
      );
      expect(actual).toEqual(wanted);
    });

    it('differs from the baseline in the tenant-specific values only where the seed puts the tenant', () => {
      const ctx = ctxOf(client);
      const present = Object.entries(TENANT_SPECIFIC).filter(
        ([key]) => !expected.missing.has(`${key}.json`),
      );
      const tenantOnly = (key: string) =>
        (groups.get(`${key}.json`)?.deviations ?? []).filter(
          (d) => !expected.declared.get(`${key}.json`)?.has(engineShape(d.property)),
        );
      expect(
        Object.fromEntries(
          present.map(([key]) => [
            key,
            [...new Set(tenantOnly(key).map((d) => engineShape(d.property)))],
          ]),
        ),
      ).toEqual(Object.fromEntries(present));
      const wrongValues = present.flatMap(([key]) =>
        tenantOnly(key)
          .map((d) => String(d.clientValue))
          .filter((v) =>
            key.includes('Head Office')
              ? !/^203\.0\.113\.\d+\/32$/.test(v)
              : key.includes('Autopilot')
                ? v !== `${ctx.code}-%SERIAL%`
                : !v.includes(`${client.domainPrefix}.com`),
          )
          .map((v) => `${key}: ${v}`),
      );
      expect(wrongValues).toEqual([]);
    });

    it('counts and scores the groups as spec 3 §5 says', () => {
      const prerequisites = data.deviations.filter((g) => g.isPrerequisite).length;
      const compliant = comparedBaseline.length - data.deviations.length;
      expect(data.totalCount).toBe(comparedBaseline.length);
      expect(data.deviationCount).toBe(expected.missing.size + expected.modified.size);
      expect(data.compliantCount).toBe(compliant);
      expect(data.compliancePercentage).toBe(
        Math.round((compliant / (comparedBaseline.length - prerequisites)) * 100),
      );
      const bySeverity = (s: string) => data.deviations.filter((g) => g.highestSeverity === s);
      expect(data.criticalCount).toBe(bySeverity('critical').length);
      expect(data.lowCount).toBe(bySeverity('low').length);
    });

    it('agrees with the comparison rows: a policy fails exactly when it is a deviation group', () => {
      // rows are keyed category → file name; a second file of the same name in a category is keyed by its
      // path below the category (e.g. Exchange: 'Default' and 'RemoteDomain/Default')
      const used = new Map<string, Set<string>>();
      const fromRows: Record<string, string[] | 'missing' | 'passes' | 'no rows'> = {};
      const fromGroups: Record<string, string[] | 'missing' | 'passes' | 'no rows'> = {};
      for (const f of comparedBaseline) {
        const path = f.path.replace(/\.json$/, '');
        const category = path.split('/')[0] ?? '';
        const names = used.get(category) ?? new Set<string>();
        used.set(category, names);
        let name = path.slice(path.lastIndexOf('/') + 1);
        if (names.has(name)) name = path.slice(category.length + 1);
        names.add(name);
        const policyRows = rows[category]?.[name];
        fromRows[f.path] = !policyRows
          ? 'no rows'
          : policyPasses(policyRows)
            ? 'passes'
            : policyRows.every((r) => r.DiffValue === MISSING)
              ? 'missing'
              : [...new Set(policyRows.filter((r) => !r.Equal).map((r) => r.Path))].sort();
        const g = groups.get(f.path);
        fromGroups[f.path] = !g
          ? 'passes'
          : g.isMissing
            ? 'missing'
            : [...new Set(g.deviations.map((d) => d.property))].sort();
      }
      expect(fromRows).toEqual(fromGroups);
      expect(Object.values(rows).flatMap((p) => Object.keys(p))).toHaveLength(
        comparedBaseline.length,
      );
    });

    // Suggestions pair policies of one export kind only: the seed files each policy under {category}/{kind}/, so a
    // suggestion from another folder (FAB's missing Safe Attachments policy was once offered its own Safe
    // Attachments rule at 100, WWI's missing Safe Links rule the Safe Attachments rule) is a wrong match, and a
    // missing policy the client did not rename has no counterpart that auto-match (90 or more) may confirm.
    it('suggests only client policies of the same kind, and auto-matches nothing but declared renames', () => {
      const unmatched = findUnmatchedPolicies(data);
      const clientPathOf = (policy: unknown): string | undefined =>
        data.clientOnlyPolicies.find((c) => c.clientPolicy === policy)?.path ??
        data.deviations
          .filter((g) => g.clientPolicy === policy)
          .map((g) => g.clientPath ?? g.path)[0];
      const folder = (path: string | undefined): string =>
        (path ?? '').split('/').slice(0, 2).join('/');
      const otherKinds = unmatched.flatMap((u) =>
        u.suggestions
          .filter((s) => folder(clientPathOf(s.policy)) !== folder(u.path))
          .map((s) => `${u.path} → ${s.clientName} (${s.score})`),
      );
      expect(otherKinds).toEqual([]);
      const renamedPaths = new Set(expected.renamed.map((r) => r.baselinePath));
      const confident = unmatched
        .filter((u) => !renamedPaths.has(u.path) && (u.suggestions[0]?.score ?? 0) >= 90)
        .map((u) => `${u.path} → ${u.suggestions[0]?.clientName}`);
      expect(confident).toEqual([]);
      for (const m of autoMatches(unmatched))
        expect(expected.renamed).toContainEqual(
          expect.objectContaining({ baselinePath: m.baselinePath, clientName: m.clientName }),
        );
    });

    it('suggests each renamed policy for its baseline policy, and matching it leaves only the declared changes', () => {
      const unmatched = findUnmatchedPolicies(data);
      const best = expected.renamed.map((r) => {
        const s = unmatched.find((x) => x.path === r.baselinePath)?.suggestions[0];
        return {
          path: r.baselinePath,
          clientName: s?.clientName,
          suggested: (s?.score ?? 0) >= 60,
        };
      });
      expect(best).toEqual(
        expected.renamed.map((r) => ({
          path: r.baselinePath,
          clientName: r.clientName,
          suggested: true,
        })),
      );
      // confirm the suggested match, as the user does on the matching screen
      const confirmed = expected.renamed.map((r): ConfirmedMatch => {
        const u = unmatched.find((x) => x.path === r.baselinePath);
        const s = u?.suggestions[0];
        return {
          baselineName: u?.baselineName ?? '',
          baselinePath: r.baselinePath,
          clientId: s?.clientId,
          clientName: s?.clientName ?? '',
          score: s?.score ?? 0,
          scores: s?.scores ?? { conditions: 0, grantControls: 0, sessionControls: 0 },
          confirmedAt: '2025-06-01T09:00:00.000Z',
        };
      });
      const matched: ComplianceData = applyMatches(data, confirmed);
      expect(matched.matchesAppliedCount).toBe(expected.renamed.length);
      const clientOnly = matched.clientOnlyPolicies.map((p) => p.path);
      // the rename itself shows as a changed display name; beyond it only the declared changes remain
      const names = new Set(['displayName', 'DisplayName', 'name', 'Name', 'Id']);
      const after = expected.renamed.map((r) => {
        const g = matched.deviations.find((x) => x.path === r.baselinePath);
        return {
          path: r.baselinePath,
          stillClientOnly: clientOnly.includes(r.clientPath),
          changeType: g?.changeType,
          clientPath: g?.clientPath,
          changes: [...(g ? deviationShapes(g) : [])].filter((s) => !names.has(s)).sort(),
        };
      });
      expect(after).toEqual(
        expected.renamed.map((r) => ({
          path: r.baselinePath,
          stillClientOnly: false,
          changeType: 'modified',
          clientPath: r.clientPath,
          changes: [...(expected.declared.get(r.baselinePath)?.keys() ?? [])].sort(),
        })),
      );
    });
  },
);

/** Standard baseline checks each client's declared deviations break, beyond those the baseline itself fails. */
const BREAKS: Record<string, string[]> = {
  ABC: [],
  CON: ['DEV.1001'], // device quota raised to 20 (at most 10)
  FAB: [
    'MT.1015', // phishing-resistant MFA for admins (CA105) missing
    'MS.AAD.3.6v1', // the same policy, SCuBA's phishing-resistant MFA for privileged roles
    'AD.2002', // banned passwords on premises off
    'AD.2003', // everyone may create groups
    'AD.2004', // guests may be added to groups
    'DEF.1001', // Safe Links click-through allowed
    'DEF.1002', // Safe Attachments policy missing
    'EXC.1001', // remote domain auto-forwarding
    'EXC.1002', // outbound spam filter auto-forwarding On
    'EXC.1003', // OWA no longer blocks .js and .vbs
    'EXC.1004', // mailbox auditing off
    'EXC.1007', // SMTP AUTH re-enabled
    'AD.2001', // the authorization policy allows consent to risky apps
  ],
  NWT: [],
  WWI: [
    ...['MT.1009', 'MT.1010', 'MT.1011', 'MT.1012', 'MT.1013', 'MT.1014', 'MT.1016'], // CA not deployed
    'DEV.1001', // device quota 50
    'MS.AAD.3.5v1', // SMS sign-in left on (the baseline disables SMS, voice and email)
  ],
};

describe('standard baseline on the sample clients', () => {
  const failing = (files: ConfigFile[]) =>
    new Set(
      runStandardBaseline(files)
        .results.filter((r) => !r.pass)
        .map((r) => r.id),
    );
  const baseline = failing(baselineFiles);

  it('has 70 checks and evaluates the company baseline', () => {
    const r = runStandardBaseline(baselineFiles);
    expect(r.total).toBe(70);
    expect(r.message).toBeUndefined();
    expect(r.percentage).toBeGreaterThanOrEqual(85);
  });

  it.each(SAMPLE_CLIENTS.map((c) => c.code))(
    '%s fails the baseline’s failing checks plus exactly those its declared deviations break',
    (code) => {
      const clientFailing = failing(tree(`Clients/${code}/${RESOURCES_ROOT}`));
      expect(clientFailing).toEqual(new Set([...baseline, ...(BREAKS[code] ?? [])]));
    },
  );

  it('reports SMS sign-in enabled for the client that left it on (WWI)', () => {
    const r = runStandardBaseline(tree(`Clients/WWI/${RESOURCES_ROOT}`));
    expect(r.results.find((x) => x.id === 'MS.AAD.3.5v1')?.current).toBe('Enabled: Sms');
  });
});
