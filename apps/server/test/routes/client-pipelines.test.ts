// Issue 16: a client's app deployment YAML (app list regenerated from its table) and weekly
// schedules, read from and written to the seeded DevOps emulator's configuration repository.

import type { AppTables } from '@aegis/connectors/tables';
import type {
  ClientScheduleList,
  ClientYaml,
  ClientYamlPreview,
  StreamEvent,
} from '@aegis/contracts';
import { readAppList, readSchedules, type AppTableEntity } from '@aegis/domain';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, mainWriterOf, type AppWithDevOps } from '../devops-fixture';
import { SAMPLE_USER, type TestApp } from '../helper';

const ROWS: AppTableEntity[] = [
  { PartitionKey: 'appinfo-pk1', RowKey: '0001', AppName: '7-Zip', Status: 'Enabled' },
  { PartitionKey: 'appinfo-pk1', RowKey: '0002', AppName: 'VLC', Status: 'Disabled' },
  { PartitionKey: 'appinfo-pk1', RowKey: '0003', AppName: 'Slack', Status: 'Enabled' },
];

const tables = {
  listEntities: async (table: string) => (table === 'ABCWorkstationApps' ? ROWS : []),
} as Partial<AppTables> as AppTables;

describe('client YAML and schedules', () => {
  let env: AppWithDevOps;
  let t: TestApp;
  const as = (options: Parameters<TestApp['injectAs']>[1]) => t.injectAs(SAMPLE_USER, options);
  const schedules = async () => {
    const response = await as({ method: 'GET', url: '/api/schedules' });
    expect(response.statusCode).toBe(200);
    const events = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as StreamEvent<ClientScheduleList>);
    const result = events.at(-1);
    if (result?.type !== 'result') throw new Error(`no result: ${response.body}`);
    return { events, rows: result.result.rows };
  };

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ ports: { tables } });
    t = env.t;
  });
  afterAll(() => env?.close());

  it("reads a client's YAML and regenerates its app list from the enabled rows", async () => {
    const read = await as({ method: 'GET', url: '/api/client-yaml/ABC' });
    expect(read.statusCode).toBe(200);
    const yaml = read.json() as ClientYaml;
    expect(yaml.path).toBe('/Client_Yaml_Files/ABC-azure-pipelines.yml');
    expect(yaml.content).toContain('# App deployment pipeline for ABC');

    const shown = (
      await as({ method: 'GET', url: '/api/client-yaml/ABC/apps-preview' })
    ).json() as ClientYamlPreview;
    expect(shown.nextApps).toEqual(['7-Zip', 'Slack']);
    expect(shown.changes.added).toEqual(['7-Zip', 'Slack'].filter((a) => !yaml.apps.includes(a)));

    const updated = await as({
      method: 'POST',
      url: '/api/client-yaml/ABC/apps',
      payload: { commitId: shown.commitId },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ message: 'YAML updated successfully.' });
    const { state } = env.devops.emulator;
    const repo = state.data.repositories.find((r) => r.name === 'M365Config')!;
    const git = state.git(repo.id);
    const main = (await git.revParse('refs/heads/main^{commit}'))!;
    expect(main).toBe(updated.json().commitId);
    const stored = (await git.readBlob(main, 'Client_Yaml_Files/ABC-azure-pipelines.yml')).toString(
      'utf8',
    );
    expect(readAppList(stored)).toEqual(['7-Zip', 'Slack']);
    // everything but the app list is as it was
    expect(readSchedules(stored)).toEqual(readSchedules(yaml.content));

    const stale = await as({
      method: 'POST',
      url: '/api/client-yaml/ABC/apps',
      payload: { commitId: shown.commitId },
    });
    expect(stale.statusCode).toBe(409);
  });

  it('lists one schedule row per client with the schedule in words and its next run', async () => {
    const { events, rows } = await schedules();
    expect(events[0]).toMatchObject({ type: 'progress' });
    const abc = rows.find((row) => row.clientCode === 'ABC');
    expect(abc?.schedules).toEqual([
      {
        cron: '0 2 * * 0',
        displayName: 'Weekly 2:00 AM build (Sunday)',
        description: expect.stringContaining('Sunday'),
        nextRun: expect.stringMatching(/T02:00:00\.000Z$/),
      },
    ]);
    expect(new Set(rows.map((r) => r.clientCode)).size).toBe(rows.length);
    expect(rows.some((row) => row.schedules.length === 0)).toBe(true);
  });

  it('refuses a slot another client holds that day, then writes the single weekly entry', async () => {
    const { rows } = await schedules();
    const free = rows.find((row) => row.schedules.length === 0)!;
    const taken = await as({
      method: 'PUT',
      url: `/api/schedules/${free.clientCode}`,
      payload: { cronExpression: '0 2 * * 0', displayName: 'Weekly 2:00 AM build (Sunday)' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Time slot in use by - ABC');

    const saved = await as({
      method: 'PUT',
      url: `/api/schedules/${free.clientCode}`,
      payload: { cronExpression: '30 23 * * 6', displayName: 'Weekly 11:30 PM build (Saturday)' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ message: 'Schedule updated successfully!' });
    const after = (await schedules()).rows.find((row) => row.clientCode === free.clientCode);
    expect(after?.schedules.map((s) => [s.cron, s.displayName])).toEqual([
      ['30 23 * * 6', 'Weekly 11:30 PM build (Saturday)'],
    ]);
  });

  it('an unrelated commit between preview and update does not block the app list update', async () => {
    const repo = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
    const git = mainWriterOf(t);
    const shown = (
      await as({ method: 'GET', url: '/api/client-yaml/FAB/apps-preview' })
    ).json() as ClientYamlPreview;
    const [main] = await git.listRefs(repo, 'heads/main');
    await git.push(repo, {
      branch: 'main',
      oldObjectId: main!.commitId,
      commits: [
        {
          comment: 'someone else: an unrelated note',
          changes: [{ changeType: 'add', path: '/Notes/unrelated.md', content: 'hello\n' }],
        },
      ],
    });
    const updated = await as({
      method: 'POST',
      url: '/api/client-yaml/FAB/apps',
      payload: { commitId: shown.commitId },
    });
    expect(updated.statusCode).toBe(200);
    const file = await git.getFile(repo, '/Client_Yaml_Files/FAB-azure-pipelines.yml', {
      version: { branch: 'main' },
    });
    expect(readAppList(file!.content)).toEqual(shown.nextApps);
    expect(
      await git.getFile(repo, '/Notes/unrelated.md', { version: { branch: 'main' } }),
    ).toBeDefined();
  });

  it('keeps both of two schedules saved at the same time for different clients', async () => {
    const { rows } = await schedules();
    const [first, second] = rows.filter((row) => row.clientCode !== 'ABC').slice(-2);
    const [a, b] = await Promise.all([
      as({
        method: 'PUT',
        url: `/api/schedules/${first!.clientCode}`,
        payload: { cronExpression: '0 5 * * 2', displayName: 'Weekly 5:00 AM build (Tuesday)' },
      }),
      as({
        method: 'PUT',
        url: `/api/schedules/${second!.clientCode}`,
        payload: { cronExpression: '30 5 * * 2', displayName: 'Weekly 5:30 AM build (Tuesday)' },
      }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const after = (await schedules()).rows;
    expect(after.find((r) => r.clientCode === first!.clientCode)?.schedules[0]?.cron).toBe(
      '0 5 * * 2',
    );
    expect(after.find((r) => r.clientCode === second!.clientCode)?.schedules[0]?.cron).toBe(
      '30 5 * * 2',
    );
  });

  // issue 26: the slot rule held only per request; six saves of one slot at once all got 200
  it('six clients saving the same slot at once: exactly one holds it, the others get 409', async () => {
    const { rows } = await schedules();
    const contenders = rows.slice(0, 6);
    expect(contenders).toHaveLength(6);
    const slot = { cronExpression: '30 4 * * 3', displayName: 'Weekly 4:30 AM build (Wednesday)' };
    const responses = await Promise.all(
      contenders.map((row) =>
        as({ method: 'PUT', url: `/api/schedules/${row.clientCode}`, payload: slot }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    const winner = contenders[statuses.indexOf(200)]!.clientCode;
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json().message).toBe(`Time slot in use by - ${winner}`);
    }

    const repo = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
    const git = mainWriterOf(t);
    const holders: string[] = [];
    for (const row of (await schedules()).rows) {
      const file = await git.getFile(
        repo,
        `/Client_Yaml_Files/${row.clientCode}-azure-pipelines.yml`,
        {
          version: { branch: 'main' },
        },
      );
      if (file && readSchedules(file.content).some((s) => s.cron === slot.cronExpression)) {
        holders.push(row.clientCode);
      }
    }
    expect(holders).toEqual([winner]);
  });

  it('validates the cron and display name, naming the field', async () => {
    const offGrid = await as({
      method: 'PUT',
      url: '/api/schedules/ABC',
      payload: { cronExpression: '15 9 * * 1', displayName: 'Weekly 9:15 AM build (Monday)' },
    });
    expect(offGrid.statusCode).toBe(400);
    expect(offGrid.json().field).toBe('cronExpression');
    const wrongName = await as({
      method: 'PUT',
      url: '/api/schedules/ABC',
      payload: { cronExpression: '0 9 * * 1', displayName: 'Every Monday' },
    });
    expect(wrongName.statusCode).toBe(400);
    expect(wrongName.json().field).toBe('displayName');
    const badFolder = await as({ method: 'GET', url: '/api/client-yaml/abc' });
    expect(badFolder.statusCode).toBe(400);
  });
});
