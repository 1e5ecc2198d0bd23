import type {
  ComparisonEvent,
  ConfigurationsEvent,
  OptionsComparisonResult,
  PolicyFiles,
  StandardComparisonResult,
} from '@aegis/contracts';
import { buildCaptureManifest, captureManifestPath, renderCaptureManifest } from '@aegis/domain';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '@aegis/emulators';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  buildWithSeededDevOps,
  mainWriterOf,
  type AppWithDevOps,
  type DevOpsFixture,
} from '../devops-fixture';
import { SAMPLE_USER, type TestApp } from '../helper';

const REPO = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };

function events<T>(body: string): T[] {
  return body
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

function progressOf(list: { type: string; percent?: number }[]): number[] {
  return list.filter((e) => e.type === 'progress').map((e) => e.percent ?? -1);
}

describe('comparison routes', () => {
  let t: TestApp;
  let devops: DevOpsFixture;
  let env: AppWithDevOps;

  beforeAll(async () => {
    env = await buildWithSeededDevOps();
    ({ t, devops } = env);
  });
  afterEach(() => devops.emulator.faults.clear());
  afterAll(() => env.close());

  const run = async (client: string, baselineType: string) => {
    const response = await t.injectAs(SAMPLE_USER, {
      method: 'POST',
      url: '/api/comparison/runs',
      payload: { client, baselineType },
    });
    return { response, events: events<ComparisonEvent>(response.body) };
  };

  it('runs the company (options) baseline, streaming progress from the work', async () => {
    const { response, events: list } = await run('CON', 'options');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/x-ndjson');
    const progress = progressOf(list);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // listings (≤ 50), downloads (50), then the comparison batches (50–100)
    expect(progress).toContain(25);
    expect(progress).toContain(50);
    expect(progress.some((p) => p > 50 && p < 100)).toBe(true);
    const last = list.at(-1);
    expect(last?.type).toBe('result');
    const result = (last as { result: OptionsComparisonResult }).result;
    expect(result.baselineType).toBe('options');
    expect(result.warnings).toEqual([]);
    const categories = Object.keys(result.rows);
    expect(categories.length).toBeGreaterThan(2);
    const failing = Object.values(result.rows)
      .flatMap((policies) => Object.values(policies))
      .flat()
      .filter((row) => !row.Equal);
    // CON raised the device quota to 20
    expect(failing.some((row) => row.DiffValue === 20)).toBe(true);
    const [category, policies] = Object.entries(result.policyPaths)[0] ?? [];
    expect(Object.values(policies ?? {})[0]).toMatch(new RegExp(`^${category}/.+\\.json$`));
  });

  it('runs the standard baseline: 30 during the fetch, then 35 … 100', async () => {
    const { response, events: list } = await run('ABC', 'standard');
    expect(response.statusCode).toBe(200);
    expect(progressOf(list)).toEqual([0, 30, 35, 40, 55, 70, 85, 95, 100]);
    const last = list.at(-1) as { type: string; result: StandardComparisonResult };
    expect(last.type).toBe('result');
    expect(last.result.total).toBe(70);
    expect(last.result.passed + last.result.failed).toBe(70);
    expect(last.result.evaluatedCount).toBeGreaterThan(0);
  });

  it("reports 'Missing content for {a} or {b}' for a client file that is not valid JSON", async () => {
    const client = mainWriterOf(t);
    const listing = await client.listItems(REPO, '/Clients/NWT/M365Config/Resources', {
      recursion: 'full',
    });
    const target = listing.find(
      (i) => i.gitObjectType === 'blob' && /\/(AzureAD|Exchange|Intune)\//.test(i.path),
    );
    if (!target) throw new Error('no client file to break');
    const [main] = await client.listRefs(REPO, 'heads/main');
    await client.push(REPO, {
      branch: 'main',
      oldObjectId: main?.commitId ?? '',
      commits: [
        {
          comment: 'test: a broken export',
          changes: [{ changeType: 'edit', path: target.path, content: '{ "broken": ' }],
        },
      ],
    });

    const { events: list } = await run('NWT', 'options');
    const result = (list.at(-1) as { result: OptionsComparisonResult }).result;
    const resourcePath = target.path.replace('/Clients/NWT/M365Config/Resources/', '');
    expect(result.warnings).toEqual([
      `Missing content for /M365Config/Resources/${resourcePath} or ${target.path}`,
    ]);
    const rows = Object.values(result.rows)
      .flatMap((p) => Object.values(p))
      .flat();
    expect(rows.filter((r) => r.Description.startsWith('Missing content for'))).toHaveLength(1);

    const policy = await t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: `/api/comparison/clients/NWT/policy?path=${encodeURIComponent(resourcePath)}`,
    });
    expect(policy.statusCode).toBe(200);
    const files = policy.json() as PolicyFiles;
    expect(files.clientConfiguration).toMatchObject({ content: null, text: '{ "broken": ' });
    expect(files.baseline?.content).toBeTypeOf('object');
  });

  it("ends a standard run with nothing to evaluate with 'No security settings found…'", async () => {
    const client = mainWriterOf(t);
    const [main] = await client.listRefs(REPO, 'heads/main');
    await client.push(REPO, {
      branch: 'main',
      oldObjectId: main?.commitId ?? '',
      commits: [
        {
          comment: 'test: a client with nothing the standard checks read',
          changes: [
            {
              changeType: 'add',
              path: '/Clients/ZZY/M365Config/Resources/Planner/Plan/Empty.json',
              content: '{}',
            },
          ],
        },
      ],
    });
    const { events: list } = await run('ZZY', 'standard');
    expect(list.at(-1)).toEqual({
      type: 'error',
      statusCode: 422,
      message: 'No security settings found to evaluate in the client configuration.',
    });
  });

  it('loads both configurations for viewing: listing 0–50, downloads 50–100', async () => {
    const response = await t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: '/api/comparison/clients/WWI/configurations',
    });
    const list = events<ConfigurationsEvent>(response.body);
    expect(progressOf(list)).toEqual([0, 25, 50, 75, 100]);
    const last = list.at(-1);
    if (last?.type !== 'result') throw new Error(`expected a result, got ${JSON.stringify(last)}`);
    expect(last.result.baseline.files.length).toBeGreaterThan(5);
    expect(last.result.clientConfiguration.files.length).toBeGreaterThan(5);
    expect(
      last.result.baseline.files.every((f) => f.path.startsWith('/M365Config/Resources/')),
    ).toBe(true);
    expect(last.result.baseline.files.some((f) => f.path.includes('/Descriptions/'))).toBe(false);
  });

  it('answers 400 naming the field for a client code that is not three capital letters', async () => {
    const bad = await run('abc', 'options');
    expect(bad.response.statusCode).toBe(400);
    expect(bad.response.json()).toMatchObject({ field: 'body.client' });
    const type = await run('ABC', 'cis');
    expect(type.response.statusCode).toBe(400);
    expect(type.response.json()).toMatchObject({ field: 'body.baselineType' });
    const param = await t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: '/api/comparison/clients/AB1/configurations',
    });
    expect(param.statusCode).toBe(400);
    expect(param.json()).toMatchObject({ field: 'params.client' });
    const path = await t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: `/api/comparison/clients/ABC/policy?path=${encodeURIComponent('../../x.json')}`,
    });
    expect(path.statusCode).toBe(400);
    expect(path.json()).toMatchObject({ field: 'querystring.path' });
  });

  it('answers 404 before the stream starts for a client without a configuration', async () => {
    const standard = await run('ZZZ', 'standard');
    expect(standard.response.statusCode).toBe(404);
    expect(standard.response.headers['content-type']).toContain('application/json');
    expect(standard.response.json()).toMatchObject({
      message: 'Error comparing to standard baseline: No configuration found for client ZZZ',
    });
    const options = await run('ZZZ', 'options');
    expect(options.response.statusCode).toBe(404);
    expect(options.response.json()).toMatchObject({
      message: 'Error comparing files: No configuration found for client ZZZ',
    });
    const configurations = await t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: '/api/comparison/clients/ZZZ/configurations',
    });
    expect(configurations.statusCode).toBe(404);
    expect(configurations.json()).toMatchObject({
      message: 'Error fetching client configuration: No configuration found for client ZZZ',
    });
  });

  it("gives the spec's messages when Azure DevOps fails", async () => {
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      pathPattern: 'items',
      message: 'VS402371: The service is unavailable.',
    });

    // the client check before the stream fails: an ordinary answer with the spec's text
    const options = await run('ABC', 'options');
    expect(options.response.statusCode).toBe(502);
    expect(options.response.json()).toMatchObject({
      message: expect.stringMatching(/^Error comparing files: .*VS402371/) as unknown,
    });
    const standard = await run('ABC', 'standard');
    expect(standard.response.json()).toMatchObject({
      message: expect.stringMatching(
        /^Error comparing to standard baseline: .*VS402371/,
      ) as unknown,
    });
    const configurations = await t.injectAs(SAMPLE_USER, {
      method: 'GET',
      url: '/api/comparison/clients/ABC/configurations',
    });
    expect(configurations.json()).toMatchObject({
      message: expect.stringMatching(/^Error fetching client configuration: .*VS402371/) as unknown,
    });
  });

  it('streams a failure that happens after the start as an error event', async () => {
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      pathPattern: 'items',
      message: 'VS402371: The service is unavailable.',
      // the client check's listing passes; the full listings of the comparison fail
      queryPattern: 'recursionLevel=Full',
    });
    const options = await run('ABC', 'options');
    expect(options.response.statusCode).toBe(200);
    expect(options.events.at(-1)).toMatchObject({
      type: 'error',
      statusCode: 502,
      message: expect.stringMatching(/^Error comparing files: .*VS402371/) as unknown,
    });
  });

  it("leaves out a workload the client's capture did not read and names it (ADR 050)", async () => {
    const rowsOf = (result: OptionsComparisonResult) =>
      Object.values(result.rows)
        .flatMap((p) => Object.values(p))
        .flat();
    const before = (await run('CON', 'options')).events.at(-1) as {
      result: OptionsComparisonResult;
    };
    // CON raised the device quota to 20: the workload of that drift is the one not read
    const drifted = Object.entries(before.result.rows).flatMap(([category, policies]) =>
      Object.entries(policies)
        .filter(([, rows]) => rows.some((r) => r.DiffValue === 20))
        .map(([name]) => before.result.policyPaths[category]?.[name] ?? ''),
    );
    const workload = drifted[0]?.split('/').slice(0, 2).join('/') ?? '';
    expect(workload).toMatch(/^[^/]+\/[^/]+$/);
    expect(before.result.notCaptured).toEqual([]);

    const client = mainWriterOf(t);
    const [main] = await client.listRefs(REPO, 'heads/main');
    const manifest = buildCaptureManifest(new Date('2026-11-01T00:00:00Z'), [
      [workload, { status: 'failed', httpStatus: 500, message: 'boom' }],
    ]);
    await client.push(REPO, {
      branch: 'main',
      oldObjectId: main?.commitId ?? '',
      commits: [
        {
          comment: 'test: a partial capture',
          changes: [
            {
              changeType: 'add',
              path: captureManifestPath('CON'),
              content: renderCaptureManifest(manifest),
            },
          ],
        },
      ],
    });

    const after = (await run('CON', 'options')).events.at(-1) as {
      result: OptionsComparisonResult;
    };
    expect(after.result.notCaptured).toEqual([
      { workload, status: 'failed', text: 'Not captured: the service answered 500: boom' },
    ]);
    const paths = Object.values(after.result.policyPaths).flatMap((p) => Object.values(p));
    expect(paths.filter((p) => p.startsWith(`${workload}/`))).toEqual([]);
    expect(paths.length).toBeGreaterThan(0);
    expect(rowsOf(after.result).some((r) => r.DiffValue === 20)).toBe(false);
    expect(rowsOf(after.result).some((r) => !r.Equal)).toBe(true);

    const standard = (await run('CON', 'standard')).events.at(-1) as {
      result: StandardComparisonResult;
    };
    expect(standard.result.notCaptured).toEqual(after.result.notCaptured);
    expect(standard.result.results.filter((r) => r.file?.startsWith(`${workload}/`))).toEqual([]);
  });

  it('asks DevOps only for main when a comparison is run again; a new commit on main is compared next (ADR 088)', async () => {
    const counter = devops.emulator.faults.add({ kind: 'latency', latencyInMs: 0 });
    const requests = () => devops.emulator.faults.list().find((f) => f.id === counter)?.hits ?? 0;
    const result = async () => {
      const { response, events: list } = await run('FAB', 'options');
      expect(response.statusCode).toBe(200);
      return (list.at(-1) as { result: OptionsComparisonResult }).result;
    };
    const first = await result();
    const before = requests();
    expect(await result()).toEqual(first);
    // main's ref; the client's folder, both trees and the manifest come at the commit it named
    expect(requests() - before).toBe(1);
    const git = mainWriterOf(t);
    const folder = '/Clients/FAB/M365Config/Resources';
    const [main] = await git.listRefs(REPO, 'heads/main');
    await git.push(REPO, {
      branch: 'main',
      oldObjectId: main?.commitId ?? '',
      commits: [
        {
          comment: 'test: a new FAB policy',
          changes: [
            {
              changeType: 'add',
              path: `${folder}/AzureAD/X/new.json`,
              content: JSON.stringify({ displayName: 'New' }),
            },
          ],
        },
      ],
    });
    const after = await result();
    const [tree] = await git.listItems(REPO, folder, { recursion: 'full' });
    expect(after.clientTreeId).not.toBe(first.clientTreeId);
    expect(after.clientTreeId).toBe(tree?.objectId);
  });

  it('answers 401 without a token', async () => {
    for (const [method, url] of [
      ['POST', '/api/comparison/runs'],
      ['GET', '/api/comparison/clients/ABC/configurations'],
      ['GET', '/api/comparison/clients/ABC/policy?path=a.json'],
    ] as const) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode).toBe(401);
    }
  });
});
