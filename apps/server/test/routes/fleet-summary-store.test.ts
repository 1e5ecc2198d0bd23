import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { DevOpsApi, FileChange } from '@aegis/connectors/devops';
import {
  ConfigRepository,
  createConfigRepositoryShared,
  type RawFile,
} from '@aegis/connectors/repository';
import { configFileOf } from '@aegis/connectors/repository';
import {
  createTablesClient,
  FLEET_SUMMARY_TABLE,
  FleetSummaryStore,
  deviationsEntity,
  storedDeviationsOf,
  storedSummaryOf,
  summaryEntity,
  type AppTables,
  type StoredFigures,
} from '@aegis/connectors/tables';
import type { Fleet } from '@aegis/contracts';
import {
  clientFolder,
  summarizeClient,
  worstFleetDeviations,
  type ClientSummary,
} from '@aegis/domain';
import {
  CONFIG_REPOSITORY_NAME,
  SAMPLE_PROJECTS,
  startAzurite,
  type RunningAzurite,
} from '@aegis/emulators';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { buildWithSeededDevOps, mainWriterOf, type AppWithDevOps } from '../devops-fixture';
import { build, SAMPLE_USER, type TestApp } from '../helper';

const REPO = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
/** The refresh after a change runs once the answer is sent; a busy machine gets time. */
const WAIT = { timeout: 30_000, interval: 200 };
const silent = { warn: () => undefined };

describe('fleet summaries stored for every instance (ADR 062)', () => {
  let dir: string;
  let azurite: RunningAzurite;
  let tables: AppTables;
  let env: AppWithDevOps;
  /** two instances over one DevOps organisation and one Table storage account */
  let a: TestApp;
  let b: TestApp;
  let git: DevOpsApi;
  let repository: ConfigRepository;
  let store: FleetSummaryStore;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'aegis-fleet-store-'));
    azurite = await startAzurite({ location: dir });
    tables = createTablesClient({ connectionString: azurite.connectionString });
    env = await buildWithSeededDevOps({ ports: { auditTables: tables } });
    a = env.t;
    b = await anotherInstance();
    git = mainWriterOf(a);
    repository = new ConfigRepository(git, createConfigRepositoryShared(REPO));
    store = new FleetSummaryStore(tables, silent);
  });
  afterEach(() => env.devops.emulator.faults.clear());
  afterAll(async () => {
    await b?.close();
    await env?.close();
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One more instance as the first is configured (the same DevOps, identities and tables). */
  const anotherInstance = () => {
    const config = a.config;
    return build(
      {
        AEGIS_DEVOPS_ORG_URL: config.AEGIS_DEVOPS_ORG_URL,
        AEGIS_DEVOPS_PROJECT: config.AEGIS_DEVOPS_PROJECT,
        AEGIS_LOGIN_URL: config.AEGIS_LOGIN_URL,
        AEGIS_APP_CLIENT_ID: config.AEGIS_APP_CLIENT_ID ?? '',
        AEGIS_APP_CLIENT_SECRET: config.AEGIS_APP_CLIENT_SECRET ?? '',
        AEGIS_ENTRA_TENANT_ID: config.AEGIS_ENTRA_TENANT_ID ?? '',
      },
      a.idp,
      { auditTables: tables },
    );
  };
  const fleetOf = async (instance: TestApp) => {
    const response = await instance.injectAs(SAMPLE_USER, { method: 'GET', url: '/api/fleet' });
    expect(response.statusCode).toBe(200);
    return response.json() as Fleet;
  };
  /** The zips the instances ask the emulator for while `work` runs. */
  const zipsDuring = async (work: () => Promise<unknown>) => {
    const faults = env.devops.emulator.faults;
    const id = faults.add({ kind: 'latency', latencyInMs: 0, queryPattern: 'format=zip' });
    try {
      await work();
      return faults.list().find((f) => f.id === id)?.hits ?? 0;
    } finally {
      faults.remove(id);
    }
  };
  /** A client's summary computed afresh from the trees a stored row names. */
  const freshSummary = async (stored: StoredFigures) => {
    const version = { commit: stored.commitId };
    // the company baseline and its layers, as the fleet reads them (ADR 068)
    const baseline = await repository.readFleetBaseline(stored.baselineTreeId, version);
    const files: RawFile[] = [];
    await repository.forEachFile(clientFolder(stored.client), version, (file) => {
      files.push(file);
    });
    return summarizeClient(
      stored.client,
      baseline,
      files.map(configFileOf),
      stored.summary.computedAt,
    );
  };
  const withoutTime = ({ generatedAt: _, ...fleet }: Fleet) => fleet;
  /** What a summary's row holds: the summary without its deviations (ADR 085). */
  const figuresOf = ({ deviations: _, ...figures }: ClientSummary) => figures;

  it('stores the summaries the fleet computes, equal to a fresh computation from their trees', async () => {
    const first = await fleetOf(a);
    const stored = await store.read();
    const captured = first.rows.filter((r) => r.clientTreeId !== null);
    expect([...stored.keys()].sort()).toEqual(captured.map((r) => r.client));
    // each client's figures in its row, its deviations in a row of their own, and across the fleet
    // in the index, whose ranking is the one rule's over every client's fresh deviations
    const deviations = await store.readDeviations();
    const fresh = new Map<string, ClientSummary['deviations']>();
    for (const row of captured) {
      const s = stored.get(row.client)!;
      expect(s).toMatchObject({
        clientTreeId: row.clientTreeId,
        baselineTreeId: first.baselineTreeId,
        commitId: first.commitId,
      });
      const summary = await freshSummary(s);
      expect(s.summary).toEqual(figuresOf(summary));
      expect(s.summary.compliancePercentage).toBe(row.compliancePercentage);
      fresh.set(row.client, summary.deviations);
      expect(deviations.get(row.client)).toEqual({
        client: row.client,
        baselineTreeId: s.baselineTreeId,
        clientTreeId: s.clientTreeId,
        computedAt: s.summary.computedAt,
        deviations: summary.deviations,
      });
    }
    const index = await store.deviationIndex.read();
    expect([...(index?.entries.keys() ?? [])].sort()).toEqual(captured.map((r) => r.client));
    expect(worstFleetDeviations(fresh).length).toBeGreaterThan(0);
    expect(index?.worst).toEqual(worstFleetDeviations(fresh));
    expect(first.worstDeviations).toEqual(worstFleetDeviations(fresh));
  }, 120_000);

  it('answers the other instance from the stored rows and the deviation index, with the same figures and no tree read', async () => {
    const fromA = await fleetOf(a);
    let fromB = undefined as unknown as Fleet;
    const queries = vi.spyOn(tables, 'queryEntities');
    const gets = vi.spyOn(tables, 'getEntity');
    try {
      expect(
        await zipsDuring(async () => {
          fromB = await fleetOf(b);
        }),
      ).toBe(0);
      // the summaries' rows and the one index row: no client's deviation row (ADR 085)
      const filters = queries.mock.calls
        .filter(([table]) => table === FLEET_SUMMARY_TABLE)
        .map(([, options]) => options?.filter ?? '');
      expect(filters).toHaveLength(1);
      expect(filters[0]).toMatch(/^PartitionKey eq 'main'/);
      const gotten = gets.mock.calls.filter(([table]) => table === FLEET_SUMMARY_TABLE);
      expect(gotten.map(([, keys]) => keys)).toEqual([
        { partitionKey: 'index', rowKey: 'deviations' },
      ]);
    } finally {
      queries.mockRestore();
      gets.mockRestore();
    }
    expect(withoutTime(fromB)).toEqual(withoutTime(fromA));
    expect(fromB.worstDeviations.length).toBeGreaterThan(0);
  });

  it('answers a cold round of pages on a fresh instance with one read of the rows and of the index', async () => {
    const fromA = await fleetOf(a);
    const c = await anotherInstance();
    const queries = vi.spyOn(tables, 'queryEntities');
    const gets = vi.spyOn(tables, 'getEntity');
    try {
      // as many pages at once as one technician may have heavy requests
      const pages = await Promise.all(Array.from({ length: 4 }, () => fleetOf(c)));
      const ofTable = <T extends [string, ...unknown[]]>(calls: T[]) =>
        calls.filter(([table]) => table === FLEET_SUMMARY_TABLE);
      expect(ofTable(queries.mock.calls)).toHaveLength(1);
      expect(ofTable(gets.mock.calls).map(([, keys]) => keys)).toEqual([
        { partitionKey: 'index', rowKey: 'deviations' },
      ]);
      for (const page of pages) expect(withoutTime(page)).toEqual(withoutTime(fromA));
    } finally {
      queries.mockRestore();
      gets.mockRestore();
      await c.close();
    }
  });

  it("refreshes a client's row after Aegis changes its folder, for the other instance to read", async () => {
    const before = (await store.read(['FAB'])).get('FAB');
    const cleared = await a.injectAs(SAMPLE_USER, {
      method: 'DELETE',
      url: '/api/compliance/FAB/matching',
    });
    expect(cleared.statusCode).toBe(200);
    await expect
      .poll(async () => (await store.read(['FAB'])).get('FAB')?.clientTreeId, WAIT)
      .not.toBe(before?.clientTreeId);
    const after = (await store.read(['FAB'])).get('FAB');
    expect(after?.summary).toEqual(figuresOf(await freshSummary(after!)));
    let fromB = undefined as unknown as Fleet;
    expect(
      await zipsDuring(async () => {
        fromB = await fleetOf(b);
      }),
    ).toBe(0);
    expect(fromB.rows.find((r) => r.client === 'FAB')?.clientTreeId).toBe(after?.clientTreeId);
  });

  it('recomputes only the client a merge made elsewhere changed, and stores it', async () => {
    const before = await fleetOf(b);
    const storedBefore = await store.read();
    const tree = await repository.readTree(`${clientFolder('CON')}/M365Config/Resources`, {
      commit: before.commitId,
    });
    const file = tree?.files[0];
    expect(file).toBeDefined();
    const [main] = await git.listRefs(REPO, 'heads/main');
    const change: FileChange = {
      changeType: 'edit',
      path: file!.path.startsWith('/') ? file!.path : `/${file!.path}`,
      content: JSON.stringify({ ...(file!.content as object), displayName: 'Merged elsewhere' }),
    };
    await git.push(REPO, {
      branch: 'main',
      oldObjectId: main?.commitId ?? '',
      commits: [{ comment: 'Merged PR 99: CON configuration capture', changes: [change] }],
    });
    let after = undefined as unknown as Fleet;
    const gets = vi.spyOn(tables, 'getEntity');
    try {
      // CON's folder, the baseline and its layers (this instance took every other figure from the store)
      expect(
        await zipsDuring(async () => {
          after = await fleetOf(b);
        }),
      ).toBe(3);
      // the index row read once, by the conditional write that put CON in: the page ranks with
      // the index as written, not read again
      const indexReads = gets.mock.calls.filter(
        ([table, keys]) => table === FLEET_SUMMARY_TABLE && keys.partitionKey === 'index',
      );
      expect(indexReads).toHaveLength(1);
    } finally {
      gets.mockRestore();
    }
    const index = await store.deviationIndex.read();
    expect(index?.entries.get('CON')?.clientTreeId).toBe(
      after.rows.find((r) => r.client === 'CON')?.clientTreeId,
    );
    expect(after.worstDeviations).toEqual(index?.worst);
    const storedAfter = await store.read();
    for (const [client, row] of storedBefore) {
      if (client === 'CON') continue;
      expect(storedAfter.get(client)?.summary.computedAt).toBe(row.summary.computedAt);
    }
    const con = after.rows.find((r) => r.client === 'CON');
    expect(con?.clientTreeId).not.toBe(before.rows.find((r) => r.client === 'CON')?.clientTreeId);
    const stored = (await store.read(['CON'])).get('CON');
    expect(stored).toMatchObject({ clientTreeId: con?.clientTreeId, commitId: after.commitId });
    expect(stored?.summary).toEqual(figuresOf(await freshSummary(stored!)));
  });

  it("refreshes the client a pull request changed as soon as DevOps's service hook tells", async () => {
    const secret = 'hook-secret-of-at-least-24-chars';
    const publicUrl = 'http://aegis.invalid';
    const hookEnv = {
      AEGIS_DEVOPS_ORG_URL: a.config.AEGIS_DEVOPS_ORG_URL,
      AEGIS_DEVOPS_PROJECT: a.config.AEGIS_DEVOPS_PROJECT,
      AEGIS_LOGIN_URL: a.config.AEGIS_LOGIN_URL,
      AEGIS_APP_CLIENT_ID: a.config.AEGIS_APP_CLIENT_ID ?? '',
      AEGIS_APP_CLIENT_SECRET: a.config.AEGIS_APP_CLIENT_SECRET ?? '',
      AEGIS_ENTRA_TENANT_ID: a.config.AEGIS_ENTRA_TENANT_ID ?? '',
      AEGIS_DEVOPS_HOOK_SECRET: secret,
      AEGIS_PUBLIC_URL: publicUrl,
    };
    const c = await build(hookEnv, a.idp, { auditTables: tables });
    try {
      // the start-up subscribes the hook to main of the configuration repository, once
      await c.app.ready();
      const hookUrl = `${publicUrl}/api/hooks/devops/git-push`;
      await vi.waitFor(
        async () => expect((await git.listGitPushHooks()).map((h) => h.url)).toContain(hookUrl),
        WAIT,
      );
      // a start with a rotated secret gives the same subscription the new credentials
      const subscriptionsOf = (url: string) =>
        env.devops.emulator.state.data.hookSubscriptions.filter(
          (h) => h.consumerInputs['url'] === url,
        );
      const rotated = await build(
        { ...hookEnv, AEGIS_DEVOPS_HOOK_SECRET: 'a-rotated-hook-secret-of-24-chars' },
        a.idp,
        { auditTables: tables },
      );
      try {
        await rotated.app.ready();
        await vi.waitFor(
          () =>
            expect(
              subscriptionsOf(hookUrl).map((h) => h.consumerInputs['basicAuthPassword']),
            ).toEqual(['a-rotated-hook-secret-of-24-chars']),
          WAIT,
        );
      } finally {
        await rotated.close();
      }
      // the real delivery goes to where this instance listens
      const listening = await c.app.listen({ port: 0, host: '127.0.0.1' });
      const repo = (await git.getRepository(REPO))!;
      await git.createGitPushHook({
        projectId: repo.projectId,
        repositoryId: repo.id,
        branch: 'main',
        url: `${listening}/api/hooks/devops/git-push`,
        basicAuthUsername: 'aegis',
        basicAuthPassword: secret,
      });
      await fleetOf(a);
      const storedBefore = await store.read();
      const tip = await repository.branchTip();
      const tree = await repository.readTree(`${clientFolder('NWT')}/M365Config/Resources`, {
        commit: tip,
      });
      const file = tree!.files[0]!;
      await git.push(REPO, {
        branch: 'main',
        oldObjectId: tip,
        commits: [
          {
            comment: 'Merged PR 100: NWT configuration capture',
            changes: [
              {
                changeType: 'edit',
                path: file.path,
                content: JSON.stringify({ ...(file.content as object), displayName: 'Hooked' }),
              },
            ],
          },
        ],
      });
      await env.devops.emulator.hooks.idle();
      // NWT's row names its new tree without any reader having asked; the others are untouched
      const trees = await repository.fleetTreeIds({ commit: await repository.branchTip() });
      const storedAfter = await store.read();
      expect(storedAfter.get('NWT')?.clientTreeId).toBe(trees.clients.get('NWT'));
      expect(storedAfter.get('NWT')?.summary).toEqual(
        figuresOf(await freshSummary(storedAfter.get('NWT')!)),
      );
      const others = [...storedBefore.keys()].filter((client) => client !== 'NWT');
      expect(others.map((client) => storedAfter.get(client)?.summary.computedAt)).toEqual(
        others.map((client) => storedBefore.get(client)?.summary.computedAt),
      );

      const event = (repository: string, refName = 'refs/heads/main') => ({
        eventType: 'git.push',
        resource: {
          refUpdates: [{ name: refName, oldObjectId: tip, newObjectId: tip }],
          repository: { id: repo.id, name: repository },
        },
      });
      const post = (payload: unknown, password = secret) =>
        c.app.inject({
          method: 'POST',
          url: '/api/hooks/devops/git-push',
          headers: {
            authorization: `Basic ${Buffer.from(`aegis:${password}`).toString('base64')}`,
          },
          payload: payload as object,
        });
      const refused = await post(event(REPO.repository), 'not-the-secret-of-this-hook');
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toContain('Basic');
      const other = await post(event('Aegis-Pipelines'));
      expect(other.statusCode).toBe(202);
      expect(other.json()).toMatchObject({ ignored: expect.stringContaining('Aegis-Pipelines') });
      const branch = await post(event(REPO.repository, 'refs/heads/client-NWT-capture-1'));
      expect(branch.json()).toMatchObject({ ignored: 'main did not move', refreshed: [] });
      const bad = await post({ eventType: 'git.push', resource: { refUpdates: [] } });
      expect(bad.statusCode).toBe(400);
      expect((bad.json() as { message: string }).message).toContain('resource.repository');
    } finally {
      await c.close();
    }
  }, 120_000);

  it('takes repeated, late and concurrent deliveries of the hook without losing a change, and a DevOps failure asks for a retry', async () => {
    const secret = 'hook-secret-of-at-least-24-chars';
    const c = await build(
      {
        AEGIS_DEVOPS_ORG_URL: a.config.AEGIS_DEVOPS_ORG_URL,
        AEGIS_DEVOPS_PROJECT: a.config.AEGIS_DEVOPS_PROJECT,
        AEGIS_LOGIN_URL: a.config.AEGIS_LOGIN_URL,
        AEGIS_APP_CLIENT_ID: a.config.AEGIS_APP_CLIENT_ID ?? '',
        AEGIS_APP_CLIENT_SECRET: a.config.AEGIS_APP_CLIENT_SECRET ?? '',
        AEGIS_ENTRA_TENANT_ID: a.config.AEGIS_ENTRA_TENANT_ID ?? '',
        AEGIS_DEVOPS_HOOK_SECRET: secret,
      },
      a.idp,
      { auditTables: tables },
    );
    try {
      const repo = (await git.getRepository(REPO))!;
      /** Two merges made in DevOps, each changing one client; no hook delivered them yet. */
      const pushes: { oldObjectId: string; newObjectId: string }[] = [];
      for (const client of ['WWI', 'NWT']) {
        const tip = await repository.branchTip();
        const tree = await repository.readTree(`${clientFolder(client)}/M365Config/Resources`, {
          commit: tip,
        });
        const file = tree!.files[0]!;
        await git.push(REPO, {
          branch: 'main',
          oldObjectId: tip,
          commits: [
            {
              comment: `Merged PR: ${client} configuration capture`,
              changes: [
                {
                  changeType: 'edit',
                  path: file.path,
                  content: JSON.stringify({
                    ...(file.content as object),
                    displayName: `Delivered late to ${client}`,
                  }),
                },
              ],
            },
          ],
        });
        pushes.push({ oldObjectId: tip, newObjectId: await repository.branchTip() });
      }
      const deliver = (push: { oldObjectId: string; newObjectId: string }) =>
        c.app.inject({
          method: 'POST',
          url: '/api/hooks/devops/git-push',
          headers: { authorization: `Basic ${Buffer.from(`aegis:${secret}`).toString('base64')}` },
          payload: {
            eventType: 'git.push',
            resource: {
              refUpdates: [{ name: 'refs/heads/main', ...push }],
              repository: { id: repo.id, name: REPO.repository },
            },
          },
        });

      // DevOps cannot be read: the hook answers an error, so DevOps delivers again later
      const fault = env.devops.emulator.faults.add({ kind: 'error', statusCode: 503 });
      const failed = await deliver(pushes[1]!);
      env.devops.emulator.faults.remove(fault);
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      expect(failed.statusCode).not.toBe(202);

      // DevOps delivers at least once, in no promised order: 20 deliveries of both pushes at once,
      // the later push first. Each refresh reads main's tip, so a late delivery cannot store an older
      // tree; a push delivered again while its refresh runs joins it: two refreshes, each reading at
      // most its client's folder, the baseline and its layers, where 20 would read 20 folders.
      let answers: Awaited<ReturnType<typeof deliver>>[] = [];
      expect(
        await zipsDuring(async () => {
          answers = await Promise.all(
            Array.from({ length: 20 }, (_, i) => deliver(pushes[(i + 1) % 2]!)),
          );
        }),
      ).toBeLessThanOrEqual(6);
      expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 202));
      expect(answers.map((r) => (r.json() as { refreshed: string[] }).refreshed)).toEqual(
        answers.map((_, i) => [(i + 1) % 2 === 0 ? 'WWI' : 'NWT']),
      );
      const trees = await repository.fleetTreeIds({ commit: await repository.branchTip() });
      const stored = await store.read(['WWI', 'NWT']);
      for (const client of ['WWI', 'NWT']) {
        expect(stored.get(client)?.clientTreeId).toBe(trees.clients.get(client));
        expect(stored.get(client)?.summary).toEqual(
          figuresOf(await freshSummary(stored.get(client)!)),
        );
      }
    } finally {
      await c.close();
    }
  }, 120_000);

  it('ignores a row computed from other trees or by another version of the computation', async () => {
    const fleet = await fleetOf(a);
    const abc = (await store.read(['ABC'])).get('ABC')!;
    const forged = { ...abc.summary, compliancePercentage: 1, deviations: [] };
    const other = summaryEntity({ ...abc, clientTreeId: 'f'.repeat(40), summary: forged })!;
    await tables.upsertEntities(FLEET_SUMMARY_TABLE, [other]);
    expect((await store.read(['ABC'])).get('ABC')?.summary.compliancePercentage).toBe(1);
    const oldFormat = summaryEntity({ ...abc, summary: forged })!;
    await tables.upsertEntities(FLEET_SUMMARY_TABLE, [{ ...oldFormat, Format: 0 }]);
    expect((await store.read(['ABC'])).get('ABC')).toBeUndefined();
    // a third instance, cold: neither row is taken, ABC is computed again and stored again
    const c = await anotherInstance();
    try {
      const fromC = await fleetOf(c);
      const row = fromC.rows.find((r) => r.client === 'ABC');
      expect(row?.compliancePercentage).toBe(
        fleet.rows.find((r) => r.client === 'ABC')?.compliancePercentage,
      );
      expect(row?.compliancePercentage).not.toBe(1);
      const restored = (await store.read(['ABC'])).get('ABC');
      expect(restored?.clientTreeId).toBe(abc.clientTreeId);
      expect(restored?.summary).toEqual(figuresOf(await freshSummary(restored!)));
    } finally {
      await c.close();
    }
  });

  it('keeps large deviations in parts of their own row and reads them back whole', () => {
    const deviations = Array.from({ length: 4_000 }, (_, i) => ({
      path: `Entra/ConditionalAccess/${i}-${Math.random().toString(36)}.json`,
      policyName: `Policy ${i} ${Math.random().toString(36)}`,
      category: 'Entra',
      property: `conditions.users.${Math.random().toString(36)}`,
      severity: 'high' as const,
    }));
    const summary = {
      hasConfiguration: true,
      compliancePercentage: 50,
      deviations,
      notCaptured: [],
      notes: [],
      computedAt: Date.parse('2026-11-27T08:00:00Z'),
      expiries: [],
    };
    const stored = {
      client: 'QAA',
      baselineTreeId: 'a'.repeat(40),
      clientTreeId: 'b'.repeat(40),
      commitId: 'c'.repeat(40),
      summary,
    };
    const row = summaryEntity(stored);
    expect(storedSummaryOf(row!)?.summary).toEqual(figuresOf(summary));
    const deviationsRow = deviationsEntity(stored);
    expect(Number(deviationsRow?.DeviationsParts)).toBeGreaterThan(1);
    expect(storedDeviationsOf(deviationsRow!)?.deviations).toEqual(deviations);
    const parts = Object.entries(deviationsRow ?? {}).filter(([name]) =>
      /^Deviations\d+$/.test(name),
    );
    expect(parts).toHaveLength(Number(deviationsRow?.DeviationsParts));
    for (const [, value] of parts) expect(String(value).length).toBeLessThanOrEqual(32_000);
  });
});
