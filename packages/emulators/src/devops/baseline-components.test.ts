// Every component of the deploy and off-board catalogues (domain, spec 2 §3) changes the tenant:
// for each deploy component the test first takes its objects out of a simulated tenant (or changes
// a singleton), runs 'Deploy Baseline Tenant Configuration' with that one component, and reads the
// tenant back; each off-board component then removes or reverts what the deploy put there.
import type { RepositoryRef } from '@aegis/connectors/devops';
import {
  BASELINE_COMPONENTS,
  DIRECTORY_ACCOUNTS,
  OFFBOARD_COMPONENTS,
  policyNameOf,
  RESOURCES_FOLDER,
  type TenantWorkload,
  textOf,
  workloadFor,
} from '@aegis/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { JsonObject } from '../seed/policies/types';
import { generateSampleConfigRepo } from '../seed/sample-config';
import { CONFIG_REPOSITORY_NAME } from '../seed/seed-devops';
import { findSimulatedTenant } from '../tenants/registry';
import { TenantWorld } from '../tenants/world';

import {
  startTenantPipelines,
  TENANT_MANAGEMENT_PROJECT as PROJECT,
  type TenantPipelines,
} from './tenant-pipelines';

const DEPLOY = 230;
const OFFBOARD = 231;
const CLIENT = 'NWT';
const GROUP = '#microsoft.graph.group';
const USER = '#microsoft.graph.user';

const world = new TenantWorld({ propagationDelayInMs: 0 });
const tenant = findSimulatedTenant(CLIENT)!;
const baseline = generateSampleConfigRepo();
let fixture: TenantPipelines;
let devops: TenantPipelines['devops'];

beforeAll(async () => {
  fixture = await startTenantPipelines(world);
  ({ devops } = fixture);
}, 60_000);

afterAll(async () => {
  await fixture?.close();
});

async function run(pipelineId: number, components: string[]) {
  const { result, log } = await fixture.run(pipelineId, {
    ClientCode: CLIENT,
    Components: JSON.stringify(components),
  });
  return { result, log };
}

/** The baseline files under a component's paths: workload, name and object. */
function filesOf(paths: readonly string[]) {
  const out: { workload: TenantWorkload; name: string; object: JsonObject }[] = [];
  for (const [p, text] of baseline) {
    if (!paths.some((c) => p === c || p.startsWith(`${c}/`)) || !p.endsWith('.json')) continue;
    const [category = '', kind = ''] = p.slice(RESOURCES_FOLDER.length + 1).split('/');
    const workload = workloadFor(category, kind);
    if (!workload) continue;
    const object = JSON.parse(text) as JsonObject;
    out.push({ workload, name: policyNameOf(workload, object) ?? '', object });
  }
  return out;
}

const state = () => world.state(tenant.tenantId);
/** Properties that name or identify an object (never the setting a test changes). */
const NAMING_KEYS = new Set([
  'id',
  'identity',
  'name',
  'guid',
  'exchangeobjectid',
  'displayname',
  'distinguishedname',
]);

/** The tenant's object for a baseline file (groups from the directory), if any. */
function liveOf(file: ReturnType<typeof filesOf>[number]): JsonObject | undefined {
  if (file.workload.kind === 'Group') {
    return state()
      .objectsOfType(GROUP)
      .find((g) => g['displayName'] === file.name);
  }
  const items = state().workloadObjects(file.workload);
  if ('singleton' in file.workload && file.workload.singleton) return items.get('singleton');
  const named = [...items.values()].filter((o) => policyNameOf(file.workload, o) === file.name);
  return named.find((o) => o['@odata.type'] === file.object['@odata.type']) ?? named[0];
}

/** Takes a file's object out of the tenant, or changes its first boolean or number setting. */
function disturb(file: ReturnType<typeof filesOf>[number]): void {
  const live = liveOf(file);
  if (!live) return;
  if (file.workload.kind === 'Group') {
    state().directoryObjects.delete(textOf(live['id']));
    return;
  }
  const items = state().workloadObjects(file.workload);
  // singletons, objects the service always has (Teams 'Global', Exchange 'Default', the
  // authentication methods) are changed; the rest is deleted
  if (
    ('singleton' in file.workload && file.workload.singleton) ||
    file.workload.transport === 'adminCommand' ||
    file.workload.nameProperty === 'id'
  ) {
    // a scalar setting at the top, or inside a settings object (Forms: /admin/forms `settings`)
    const scalarKey = (object: Record<string, unknown>) =>
      Object.keys(object).find(
        (k) =>
          !k.startsWith('@') &&
          !NAMING_KEYS.has(k.toLowerCase()) &&
          ['boolean', 'number', 'string'].includes(typeof object[k]),
      );
    const nested = Object.entries(live).find(
      ([, v]) =>
        v && typeof v === 'object' && !Array.isArray(v) && scalarKey(v as Record<string, unknown>),
    );
    const holder = (scalarKey(file.object) ? live : (nested?.[1] ?? live)) as Record<
      string,
      unknown
    >;
    const key = scalarKey(holder);
    if (!key) throw new Error(`${file.name} has no setting to change`);
    const value = holder[key];
    holder[key] = typeof value === 'boolean' ? !value : typeof value === 'number' ? -1 : 'changed';
    return;
  }
  for (const [k, v] of items) if (v === live) items.delete(k);
}

const userNames = () =>
  state()
    .objectsOfType(USER)
    .map((u) => textOf(u['userPrincipalName']).split('@')[0]);

/** The log section of one component ('Component …' up to the next section). */
function sectionOf(log: string, name: string): string {
  const start = log.indexOf(`##[section]Component '${name}'`);
  if (start < 0) return '';
  const end = log.indexOf('##[section]', start + 1);
  return log.slice(start, end < 0 ? undefined : end);
}

/** Splits names into runs whose components share no file (so each one's effect shows). */
function batches(names: readonly string[], pathsOf: (n: string) => readonly string[]): string[][] {
  const out: { names: string[]; files: Set<string> }[] = [];
  for (const name of names) {
    const files = filesOf(pathsOf(name)).map(
      (f) => `${f.workload.category}/${f.workload.kind}/${f.name}`,
    );
    const batch = out.find((b) => files.every((f) => !b.files.has(f)));
    if (batch) {
      batch.names.push(name);
      for (const f of files) batch.files.add(f);
    } else out.push({ names: [name], files: new Set(files) });
  }
  return out.map((b) => b.names);
}

describe('every deploy component changes the tenant', () => {
  const names = Object.keys(BASELINE_COMPONENTS).filter(
    (n) =>
      BASELINE_COMPONENTS[n]?.functionName === undefined ||
      BASELINE_COMPONENTS[n]?.functionName === 'New-AegisGroups',
  );
  const runs = batches(names, (n) => BASELINE_COMPONENTS[n]?.paths ?? []);

  it.each(runs.map((r) => [r.join(', '), r] as const))(
    '%s',
    async (_label, batch) => {
      const files = batch.flatMap((n) => filesOf(BASELINE_COMPONENTS[n]!.paths));
      expect(batch.filter((n) => filesOf(BASELINE_COMPONENTS[n]!.paths).length === 0)).toEqual([]);
      for (const f of files) disturb(f);
      const { result, log } = await run(DEPLOY, batch);
      if (result !== 'succeeded') console.log(log.split('\n').slice(-8).join('\n'));
      expect({ result, log }).toMatchObject({ result: 'succeeded' });
      const unchanged = batch.filter((n) => !/Z (created|updated) /.test(sectionOf(log, n)));
      expect(unchanged).toEqual([]);
      expect(files.filter((f) => !liveOf(f)).map((f) => f.name)).toEqual([]);
    },
    60_000,
  );

  it('Org Customisation enables organisation customisation', async () => {
    const org = state().workloadObjects(workloadFor('Exchange', 'OrganizationConfig')!);
    org.get('singleton')!['IsDehydrated'] = true;
    const { result, log } = await run(DEPLOY, ['Org Customisation']);
    expect({ result, log }).toMatchObject({ result: 'succeeded' });
    expect(org.get('singleton')!['IsDehydrated']).toBe(false);
  });

  it('Deploy Intent deploys each Settings Catalog policy from main with every setting', async () => {
    const catalog = workloadFor('Intune', 'ConfigurationPolicy')!;
    const files = filesOf(BASELINE_COMPONENTS['Deploy Intent']!.paths).filter(
      (f) => f.workload === catalog,
    );
    expect(files.length).toBeGreaterThan(0);
    const items = state().workloadObjects(catalog);
    items.clear();
    const { result, log } = await run(DEPLOY, ['Deploy Intent']);
    expect({ result, log }).toMatchObject({ result: 'succeeded' });
    const deployed = [...items.values()];
    expect(
      files.map((f) => deployed.find((p) => p['name'] === f.name)?.['settings'] ?? 'missing'),
    ).toEqual(files.map((f) => f.object['settings']));
  });

  it('Clean-Up removes Intune objects named like the baseline that main no longer has', async () => {
    const configurations = state().workloadObjects(workloadFor('Intune', 'DeviceConfiguration')!);
    configurations.set('retired-1', { id: 'retired-1', displayName: 'Baseline - Retired Wi-Fi' });
    configurations.set('own-1', { id: 'own-1', displayName: 'NWT - Kiosk' });
    const { result, log } = await run(DEPLOY, ['Clean-Up']);
    expect({ result, log }).toMatchObject({ result: 'succeeded' });
    expect(log).toMatch(/removed retired Intune\/DeviceConfiguration\/Baseline - Retired Wi-Fi/);
    expect(configurations.has('retired-1')).toBe(false);
    expect(configurations.has('own-1')).toBe(true);
    expect([...configurations.values()].map((c) => c['displayName'])).toContain(
      'Baseline - Windows - Device Restrictions',
    );
  });

  it('Service Accounts and Emergency Access Accounts create their accounts once', async () => {
    const first = await run(DEPLOY, ['Service Accounts', 'Emergency Access Accounts']);
    expect({ result: first.result, log: first.log }).toMatchObject({ result: 'succeeded' });
    expect(userNames()).toEqual(expect.arrayContaining(Object.keys(DIRECTORY_ACCOUNTS)));
    expect(first.log).not.toMatch(/password/i);
    const again = await run(DEPLOY, ['Service Accounts']);
    expect(again.log).toMatch(/already exists/);
  });
});

describe('every off-board component removes or reverts something', () => {
  const runs = batches(
    Object.keys(OFFBOARD_COMPONENTS),
    (n) => OFFBOARD_COMPONENTS[n]?.paths ?? [],
  );

  it.each(runs.map((r) => [r.join(', '), r] as const))(
    '%s',
    async (_label, batch) => {
      const components = batch.map((n) => OFFBOARD_COMPONENTS[n]!);
      const paths = components.flatMap((c) => c.paths);
      // put the baseline back first, so there is something to remove
      const deployable = Object.entries(BASELINE_COMPONENTS)
        .filter(([, c]) =>
          c.paths.some((p) => paths.some((q) => q.startsWith(p) || p.startsWith(q))),
        )
        .map(([n]) => n);
      if (components.some((c) => c.accounts)) {
        deployable.push('Service Accounts', 'Emergency Access Accounts');
      }
      const deployed = await run(DEPLOY, deployable);
      expect({ result: deployed.result, log: deployed.log }).toMatchObject({ result: 'succeeded' });
      const { result, log } = await run(OFFBOARD, batch);
      if (result !== 'succeeded') console.log(log.split('\n').slice(-8).join('\n'));
      expect({ result, log }).toMatchObject({ result: 'succeeded' });
      const untouched = batch.filter((n) => !/Z (removed|reverted) /.test(sectionOf(log, n)));
      expect(untouched).toEqual([]);
      const left = batch
        .filter((n) => OFFBOARD_COMPONENTS[n]!.action === 'remove')
        .flatMap((n) => filesOf(OFFBOARD_COMPONENTS[n]!.paths))
        .filter((f) => liveOf(f));
      expect(left.map((f) => f.name)).toEqual([]);
      const accounts = components.flatMap((c) => c.accounts ?? []);
      expect(userNames().filter((u) => accounts.includes(u ?? ''))).toEqual([]);
    },
    60_000,
  );

  it("keeps a named location the client's own policy still uses, and says so", async () => {
    await run(DEPLOY, [
      'Required Entra ID Groups',
      'Named Locations',
      'Conditional Access Policies',
    ]);
    const locations = state().workloadObjects(workloadFor('ConditionalAccess', 'NamedLocation')!);
    const office = [...locations.values()].find((l) => l['displayName'] === 'Head Office')!;
    const policies = state().workloadObjects(workloadFor('ConditionalAccess', 'Policy')!);
    policies.set('own-ca', {
      id: 'own-ca',
      displayName: 'NWT-Own-Block-Outside-Office',
      state: 'enabled',
      conditions: { locations: { includeLocations: ['All'], excludeLocations: [office['id']!] } },
    });
    const { result, log } = await run(OFFBOARD, [
      'Remove Conditional Access Policies and Named Locations',
    ]);
    expect({ result, log }).toMatchObject({ result: 'succeeded' });
    expect(log).toMatch(
      /kept ConditionalAccess\/NamedLocation\/Head Office: still used by the client's own policies NWT-Own-Block-Outside-Office/,
    );
    expect(locations.has(textOf(office['id']))).toBe(true);
    expect(policies.has('own-ca')).toBe(true);
    policies.delete('own-ca');
  }, 60_000);
});

describe('issue 15 done-when: the next capture sees what deploy and off-board did', () => {
  const REPO: RepositoryRef = { project: PROJECT, repository: CONFIG_REPOSITORY_NAME };
  async function captureChanges() {
    const started = await fixture.run(216, { ClientCode: CLIENT });
    expect(started.result).toBe('succeeded');
    const diff = await devops.getCommitDiff(
      REPO,
      { branch: 'main' },
      { branch: `client-${CLIENT}-capture-${started.id}` },
    );
    return diff.changes;
  }

  it("'Essential Security' puts its policies in the tenant; 'Minimal Cleanup' takes its own out", async () => {
    // a compliance policy missing from the tenant comes back with the deploy
    const compliance = filesOf(BASELINE_COMPONENTS['Device Compliance']!.paths)[0]!;
    disturb(compliance);
    const essential = [
      'Device Compliance',
      'Managed App',
      'Anti Phishing',
      'Org Configuration Compliance',
      'Required Entra ID Groups',
    ];
    const deployed = await run(DEPLOY, essential);
    expect(deployed.result).toBe('succeeded');
    const afterDeploy = await captureChanges();
    expect(
      afterDeploy.filter(
        (c) => c.changeType === 'delete' && c.path.includes('/DeviceCompliancePolicy/'),
      ),
    ).toEqual([]);

    await run(DEPLOY, [
      'Named Locations',
      'Conditional Access Policies',
      'Transport Rules',
      'Safe Links',
    ]);
    const cleanup = await run(OFFBOARD, [
      'Remove Conditional Access Policies and Named Locations',
      'Remove Transport Rules',
      'Remove Safe Links',
      'Remove Required Entra ID Groups',
    ]);
    expect(cleanup.result).toBe('succeeded');
    const deleted = (await captureChanges())
      .filter((c) => c.changeType === 'delete')
      .map((c) => c.path);
    for (const folder of [
      '/ConditionalAccess/Policy/',
      '/Exchange/TransportRule/',
      '/Defender/SafeLinksRule/',
      '/AzureAD/Group/SG-BreakGlass-Exclude',
    ]) {
      expect(deleted.some((p) => p.includes(folder))).toBe(true);
    }
  }, 120_000);
});
