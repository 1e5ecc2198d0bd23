import { DEVOPS_SCOPE } from '@aegis/connectors/devops';
import type {
  BackupComparison,
  StreamEvent,
  BackupContent,
  BackupList,
  BackupRestore,
  RestorePullRequestList,
} from '@aegis/contracts';
import { formatBackupSize } from '@aegis/domain';
import {
  BACKUP_PIPELINE_ID,
  backupEffect,
  CONFIG_REPOSITORY_NAME,
  SAMPLE_PROJECTS,
} from '@aegis/emulators';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  buildWithSeededDevOps,
  mainWriterOf,
  type AppWithDevOps,
  type DevOpsFixture,
} from '../devops-fixture';
import { build, SAMPLE_USER, type TestApp } from '../helper';

const READER = 'night.shift@aegis-msp.example';
const REPO = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
const OPERATOR = 'sam.taylor@aegis-msp.example';

describe('backup routes', () => {
  let t: TestApp;
  let devops: DevOpsFixture;
  let env: AppWithDevOps;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ pipelineDurationInMs: 200, tables: true });
    ({ t, devops } = env);
  });
  afterEach(() => devops.emulator.faults.clear());
  afterAll(() => env.close());

  const get = (url: string) => t.injectAs(SAMPLE_USER, { method: 'GET', url });
  const post = (url: string, payload?: object) =>
    t.injectAs(SAMPLE_USER, { method: 'POST', url, ...(payload ? { payload } : {}) });
  const list = async (client: string) => (await get(`/api/backups/${client}`)).json() as BackupList;
  /** A technician's own Azure DevOps token, as `az account get-access-token` gives one. */
  const devopsTokenOf = async (upn: string) => {
    const response = await fetch(`${t.idp.url}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: upn, scope: DEVOPS_SCOPE }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  };
  const q = (tag: string) => `tag=${encodeURIComponent(tag)}`;
  const events = (body: string) =>
    body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as StreamEvent<BackupComparison>);

  it('shows N/A for sizes that cannot be read and still lists the backups', async () => {
    devops.emulator.faults.add({ kind: 'error', statusCode: 500, pathPattern: '/items' });
    const response = await get('/api/backups/FAB');
    expect(response.statusCode).toBe(200);
    const body = response.json() as BackupList;
    expect(body.backups.length).toBeGreaterThan(0);
    expect(body.backups.every((b) => b.size === 'N/A' && b.sizeInBytes === null)).toBe(true);
    expect(body.storageUsedInBytes).toBe(0);
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/backups/ABC' });
    expect(response.statusCode).toBe(401);
  });

  it('lists backups from the tags, newest first, without tags that break the date rule', async () => {
    const body = await list('ABC');
    expect(body.client).toBe('ABC');
    const names = body.backups.map((b) => b.tagName);
    expect(names).not.toContain('backup/ABC/20250301');
    expect(names.every((n) => /^backup\/ABC\/.*\d{8}_\d{6}$/.test(n))).toBe(true);
    const dates = body.backups.map((b) => Date.parse(b.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(body.backups.some((b) => b.isScheduled)).toBe(true);
    expect(body.backups.some((b) => !b.isScheduled)).toBe(true);
    for (const b of body.backups) {
      expect(b.isScheduled).toBe(b.tagName.includes('scheduled_'));
      expect(b.size).toMatch(/^\d+(\.\d)? (B|KB|MB)$/);
      expect(b.sizeInBytes).toBeGreaterThan(0);
    }
    const total = body.backups.reduce((sum, b) => sum + (b.sizeInBytes ?? 0), 0);
    expect(body.storageUsedInBytes).toBe(total);
    expect(body.storageUsed).toBe(formatBackupSize(total));
  });

  it('gives an empty history for a client whose only tag breaks the rule', async () => {
    const body = await list('WWI');
    expect(body.backups).toEqual([]);
    expect(body.storageUsed).toBe('0 B');
  });

  it.each(['abc', 'ABCD', 'A1C'])('answers 400 naming the field for client %s', async (client) => {
    const response = await get(`/api/backups/${client}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'params.client' });
  });

  it('keeps the page usable data-wise: a failing DevOps service gives 502 with its message', async () => {
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      pathPattern: '/refs',
      message: 'TF400898: An internal error occurred.',
    });
    const response = await get('/api/backups/CON');
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ message: 'TF400898: An internal error occurred.' });
  });

  it('returns the configuration JSON of a backup', async () => {
    const [latest] = (await list('ABC')).backups;
    if (!latest) throw new Error('no ABC backup');
    const response = await get(`/api/backups/ABC/content?${q(latest.tagName)}`);
    expect(response.statusCode).toBe(200);
    const body = response.json() as BackupContent;
    expect(body.tagName).toBe(latest.tagName);
    const paths = Object.keys(body.content);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.some((p) => p.startsWith('M365Config/Resources/'))).toBe(true);
    expect(body.size).toBe(latest.size);
  });

  it("answers 'Backup tag not found' for a tag that does not exist", async () => {
    for (const tag of ['backup/ABC/20000101_000000', 'backup/ABC/20250301']) {
      const response = await get(`/api/backups/ABC/content?${q(tag)}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: 'Backup tag not found' });
    }
    const comparison = await get(`/api/backups/ABC/comparison?${q('backup/ABC/20000101_000000')}`);
    expect(comparison.statusCode).toBe(404);
    const download = await get(`/api/backups/ABC/download?${q('backup/ABC/20000101_000000')}`);
    expect(download.statusCode).toBe(404);
    const restore = await post('/api/backups/ABC/restore', { tag: 'backup/ABC/20000101_000000' });
    expect(restore.statusCode).toBe(404);
    expect(restore.json()).toMatchObject({ message: 'Backup tag not found' });
  });

  it("refuses another client's tag and a missing tag parameter with 400", async () => {
    const [con] = (await list('CON')).backups;
    const response = await get(`/api/backups/ABC/content?${q(con?.tagName ?? 'backup/CON/x')}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'tag' });
    const missing = await get('/api/backups/ABC/content');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'querystring.tag' });
  });

  it('compares a backup with the current configuration, streaming progress', async () => {
    const oldest = (await list('ABC')).backups.at(-1);
    if (!oldest) throw new Error('no ABC backup');
    const response = await get(`/api/backups/ABC/comparison?${q(oldest.tagName)}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/x-ndjson');
    const all = events(response.body);
    const progress = all.flatMap((e) => (e.type === 'progress' ? [e.percent] : []));
    expect(progress[0]).toBeLessThan(progress.at(-1) ?? 0);
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    const last = all.at(-1);
    if (last?.type !== 'result') throw new Error('no result');
    const { result } = last;
    expect(result.tagName).toBe(oldest.tagName);
    const categories = Object.keys(result.results);
    expect(categories.length).toBeGreaterThan(0);
    const firstFile = Object.values(result.results[categories[0] ?? ''] ?? {})[0];
    expect(firstFile?.[0]).toEqual(
      expect.objectContaining({ Name: expect.any(String), Equal: expect.any(Boolean) }),
    );
    const { changes, additions, deletions } = result.counts;
    expect(changes + additions + deletions).toBeGreaterThan(0);
  });

  it('an unchanged backup compares equal', async () => {
    const [latest] = (await list('ABC')).backups;
    const response = await get(`/api/backups/ABC/comparison?${q(latest?.tagName ?? '')}`);
    const result = events(response.body).at(-1);
    expect(result).toMatchObject({
      type: 'result',
      result: { counts: { changes: 0, additions: 0, deletions: 0 } },
    });
  });

  it('reports a DevOps failure during the comparison as an error event', async () => {
    // ABC's backups were compared above, so their reads are answered by the cache of reads at a
    // commit (ADR 088); CON's are not, so this comparison reads the files from DevOps.
    const [latest] = (await list('CON')).backups;
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      pathPattern: '/items',
      message: 'TF400898: items failed',
    });
    const response = await get(`/api/backups/CON/comparison?${q(latest?.tagName ?? '')}`);
    const all = events(response.body);
    expect(all.at(-1)).toEqual({
      type: 'error',
      statusCode: 502,
      message: 'TF400898: items failed',
    });
  });

  it('downloads a backup as a zip', async () => {
    const [latest] = (await list('NWT')).backups;
    const response = await get(`/api/backups/NWT/download?${q(latest?.tagName ?? '')}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="NWT_backup_[A-Za-z0-9_-]+\.zip"$/,
    );
    expect(response.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('triggers a manual backup that appears as a Manual backup', async () => {
    const before = (await list('NWT')).backups.map((b) => b.tagName);
    const response = await post('/api/backups/NWT/runs');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ runId: expect.any(Number) });
    await devops.emulator.runner.waitForIdle();
    const added = (await list('NWT')).backups.filter((b) => !before.includes(b.tagName));
    expect(added).toHaveLength(1);
    expect(added[0]?.tagName).toMatch(/^backup\/NWT\/\d{8}_\d{6}$/);
    expect(added[0]?.isScheduled).toBe(false);
    expect((await list('NWT')).backups[0]?.tagName).toBe(added[0]?.tagName);
  });

  it("two manual backups at once: the second answers 409 and never shares the first one's tag", async () => {
    const before = (await list('WWI')).backups.map((b) => b.tagName);
    // the run waits for the test, so that "still running" does not depend on timing
    let finish: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (finish = resolve));
    devops.emulator.runner.register(BACKUP_PIPELINE_ID, async (context) => {
      await running;
      return backupEffect(context);
    });
    const [first, second] = await Promise.all([
      post('/api/backups/WWI/runs'),
      post('/api/backups/WWI/runs'),
    ]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses).toEqual([201, 409]);
    const refused = first.statusCode === 409 ? first : second;
    expect(refused.json().message).toMatch(
      /^A manual backup of WWI is already running \(run \d+\)/,
    );
    finish();
    await devops.emulator.runner.waitForIdle();
    devops.emulator.runner.register(BACKUP_PIPELINE_ID, backupEffect);
    const added = (await list('WWI')).backups.filter((b) => !before.includes(b.tagName));
    expect(added).toHaveLength(1);
    // once the run has completed, the next manual backup is accepted and makes its own tag,
    // even within the same second
    const third = await post('/api/backups/WWI/runs');
    expect(third.statusCode).toBe(201);
    await devops.emulator.runner.waitForIdle();
    const both = (await list('WWI')).backups.filter((b) => !before.includes(b.tagName));
    expect(both).toHaveLength(2);
    expect(new Set(both.map((b) => b.tagName)).size).toBe(2);
  });

  it("follows a manual backup's run: its state, then completed - succeeded; an unknown run is 404", async () => {
    const started = await post('/api/backups/ABC/runs');
    expect(started.statusCode).toBe(201);
    const { runId, project, pipelineId } = started.json<{
      runId: number;
      project: string;
      pipelineId: number;
    }>();
    expect(pipelineId).toBe(212);
    const first = await get(`/api/backups/ABC/runs/${runId}`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ runId, state: expect.any(String), project, pipelineId });
    await devops.emulator.runner.waitForIdle();
    const done = await get(`/api/backups/ABC/runs/${runId}`);
    expect(done.json()).toEqual({
      runId,
      state: 'completed',
      result: 'succeeded',
      project,
      pipelineId,
    });
    // where the run lives is enough to read its log
    const log = await get(`/api/projects/${project}/pipelines/${pipelineId}/runs/${runId}/log`);
    expect(log.statusCode).toBe(200);
    const logText = log
      .json<{ lines: { text: string }[] }>()
      .lines.map((l) => l.text)
      .join('\n');
    expect(logText).toMatch(/Created tag refs\/tags\/backup\/ABC\/\d{8}_\d{6}/);
    const missing = await get('/api/backups/ABC/runs/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: 'Backup run 999999 not found' });
    expect((await get('/api/backups/ABC/runs/x')).statusCode).toBe(400);
  });

  it('answers 400 for a manual backup of a bad client code', async () => {
    const response = await post('/api/backups/abc/runs');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'params.client' });
  });

  it('surfaces the server text when the pull request cannot be created, leaving no branch', async () => {
    const oldest = (await list('CON')).backups.at(-1);
    if (!oldest) throw new Error('no CON backup');
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      method: 'POST',
      pathPattern: '/pullrequests',
      message: 'TF401179: An active pull request already exists.',
    });
    const failed = await post('/api/backups/CON/restore', { tag: oldest.tagName });
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({
      message: 'Failed to create PR: TF401179: An active pull request already exists.',
    });
    devops.emulator.faults.clear();
    const retried = await post('/api/backups/CON/restore', { tag: oldest.tagName });
    expect(retried.statusCode).toBe(201);
  });

  it('finishes a half-made restore on retry: the branch stayed because the pull request and the clean-up both failed', async () => {
    const oldest = (await list('FAB')).backups.at(-1);
    if (!oldest) throw new Error('no FAB backup');
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      method: 'POST',
      pathPattern: '/pullrequests',
      message: 'TF400898: An internal error occurred.',
    });
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      method: 'POST',
      pathPattern: '/refs$',
    });
    const failed = await post('/api/backups/FAB/restore', { tag: oldest.tagName });
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({
      message: 'Failed to create PR: TF400898: An internal error occurred.',
    });
    devops.emulator.faults.clear();
    const retried = await post('/api/backups/FAB/restore', { tag: oldest.tagName });
    expect(retried.statusCode).toBe(201);
    const restored = retried.json() as BackupRestore;
    const prs = (await get('/api/backups/FAB/restores')).json() as RestorePullRequestList;
    expect(prs.pullRequests.map((p) => p.pullRequestId)).toContain(restored.pullRequestId);
    const again = await post('/api/backups/FAB/restore', { tag: oldest.tagName });
    expect(again.statusCode).toBe(409);
  });

  it('finishes on the next read a restore whose pull request failed twice and whose branch stayed, never showing it done before', async () => {
    const oldest = (await list('NWT')).backups.at(-1);
    if (!oldest) throw new Error('no NWT backup');
    const branch = `restore/NWT/${oldest.tagName.replace(/[^A-Za-z0-9]/g, '-')}`;
    const restorePullRequests = async () =>
      (
        (await get('/api/backups/NWT/restores')).json() as RestorePullRequestList
      ).pullRequests.filter((pr) => pr.sourceRefName === `refs/heads/${branch}`);
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      method: 'POST',
      pathPattern: '/pullrequests',
      message: 'TF400898: An internal error occurred.',
    });
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      method: 'POST',
      pathPattern: '/refs$',
    });
    expect((await post('/api/backups/NWT/restore', { tag: oldest.tagName })).statusCode).toBe(502);
    expect((await post('/api/backups/NWT/restore', { tag: oldest.tagName })).statusCode).toBe(502);

    // Azure DevOps still refuses the pull request: the read answers, naming the unfinished restore.
    const stillFailing = await get('/api/backups/NWT');
    expect(stillFailing.statusCode).toBe(200);
    expect((stillFailing.json() as BackupList).unfinishedRestores).toEqual([
      { branch, tagName: oldest.tagName },
    ]);
    devops.emulator.faults.clear();

    // A Reader may not restore, so their read only reports it.
    const asReader = await t.injectAs(READER, { method: 'GET', url: '/api/backups/NWT' });
    expect((asReader.json() as BackupList).unfinishedRestores).toEqual([
      { branch, tagName: oldest.tagName },
    ]);
    expect(await restorePullRequests()).toEqual([]);

    // An Approver's read (here an Administrator's) finishes it: one pull request, nothing unfinished.
    const finished = await get('/api/backups/NWT');
    expect(finished.statusCode).toBe(200);
    expect((finished.json() as BackupList).unfinishedRestores).toEqual([]);
    const prs = await restorePullRequests();
    expect(prs).toHaveLength(1);
    expect(prs[0]).toMatchObject({
      status: 'active',
      title: `Restore NWT configuration from backup ${oldest.tagName}`,
    });
    expect((await list('NWT')).unfinishedRestores).toEqual([]);
    expect(await restorePullRequests()).toHaveLength(1);
    expect((await post('/api/backups/NWT/restore', { tag: oldest.tagName })).statusCode).toBe(409);
  });

  it('leaves alone a restore branch that does not hold its backup, and reports it unfinished', async () => {
    const backup = (await list('NWT')).backups.at(-2);
    if (!backup) throw new Error('no second NWT backup');
    const branch = `restore/NWT/${backup.tagName.replace(/[^A-Za-z0-9]/g, '-')}`;
    const repository = `${devops.emulator.url}/${encodeURIComponent(SAMPLE_PROJECTS.tenantManagement)}/_apis/git/repositories/${CONFIG_REPOSITORY_NAME}`;
    const headers = {
      authorization: `Bearer ${await devopsTokenOf(OPERATOR)}`,
      'content-type': 'application/json',
    };
    const refs = (await (
      await fetch(`${repository}/refs?filter=heads/main&api-version=7.1`, { headers })
    ).json()) as { value: { objectId: string }[] };
    // an Operator pushes a branch of that name by hand, with a file the backup does not have
    const pushed = await fetch(`${repository}/pushes?api-version=7.1`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        refUpdates: [{ name: `refs/heads/${branch}`, oldObjectId: refs.value[0]?.objectId }],
        commits: [
          {
            comment: 'hand-made',
            changes: [
              {
                changeType: 'add',
                item: { path: '/Clients/NWT/hand-made.json' },
                newContent: { content: '{}', contentType: 'rawtext' },
              },
            ],
          },
        ],
      }),
    });
    expect(pushed.status).toBe(201);

    const read = (await list('NWT')).unfinishedRestores;
    expect(read).toEqual([{ branch, tagName: backup.tagName }]);
    const prs = (await get('/api/backups/NWT/restores')).json() as RestorePullRequestList;
    expect(prs.pullRequests.map((pr) => pr.sourceRefName)).not.toContain(`refs/heads/${branch}`);
  });

  it('restores through a branch and a pull request, and never overwrites an existing restore branch', async () => {
    const oldest = (await list('ABC')).backups.at(-1);
    if (!oldest) throw new Error('no ABC backup');
    const response = await post('/api/backups/ABC/restore', { tag: oldest.tagName });
    expect(response.statusCode).toBe(201);
    const restored = response.json() as BackupRestore;
    expect(restored.pullRequestId).toBeGreaterThan(0);
    expect(restored.branch).toBe(`restore/ABC/${oldest.tagName.replace(/[^A-Za-z0-9]/g, '-')}`);

    const prs = (await get('/api/backups/ABC/restores')).json() as RestorePullRequestList;
    const pr = prs.pullRequests.find((p) => p.pullRequestId === restored.pullRequestId);
    expect(pr).toMatchObject({
      status: 'active',
      sourceRefName: `refs/heads/${restored.branch}`,
      targetRefName: 'refs/heads/main',
      title: `Restore ABC configuration from backup ${oldest.tagName}`,
    });
    expect(pr?.labels).toEqual(expect.arrayContaining(['restore', 'backup', 'ABC']));

    const again = await post('/api/backups/ABC/restore', { tag: oldest.tagName });
    expect(again.statusCode).toBe(409);
    expect((again.json() as { message: string }).message).toBe(
      `A restore branch ${restored.branch} already exists for backup ${oldest.tagName}. Nothing was overwritten: complete or abandon its pull request and delete the branch, then try again.`,
    );
    const after = (await get('/api/backups/ABC/restores')).json() as RestorePullRequestList;
    expect(after.pullRequests.filter((p) => p.sourceRefName === pr?.sourceRefName)).toHaveLength(1);
  });

  it('says there is nothing to restore when the backup equals the current configuration', async () => {
    const [latest] = (await list('ABC')).backups;
    const response = await post('/api/backups/ABC/restore', { tag: latest?.tagName ?? '' });
    expect(response.statusCode).toBe(409);
    expect((response.json() as { message: string }).message).toContain('nothing to restore');
  });

  it('restores chosen policies through a pull request whose diff holds exactly those files', async () => {
    const [latest] = (await list('ABC')).backups;
    if (!latest) throw new Error('no ABC backup');
    const content = (
      await get(`/api/backups/ABC/content?${q(latest.tagName)}`)
    ).json() as BackupContent;
    const policies = Object.keys(content.content)
      .filter((k) => k.startsWith('M365Config/Resources/ConditionalAccess/') && k.endsWith('.json'))
      .slice(0, 2);
    expect(policies).toHaveLength(2);
    const [chosen, other] = policies.map((k) => ({
      resourcePath: k.slice('M365Config/Resources/'.length),
      path: `/Clients/ABC/${k}`,
      backup: content.content[k] as Record<string, unknown>,
    })) as [
      { resourcePath: string; path: string; backup: Record<string, unknown> },
      { resourcePath: string; path: string; backup: Record<string, unknown> },
    ];
    // both policies drift on main after the backup; only the chosen one is restored
    const git = mainWriterOf(t);
    const [main] = await git.listRefs(REPO, 'heads/main');
    await git.push(REPO, {
      branch: 'main',
      oldObjectId: main!.commitId,
      commits: [
        {
          comment: 'test: two ABC policies drift',
          changes: [chosen, other].map((p) => ({
            changeType: 'edit' as const,
            path: p.path,
            content: JSON.stringify({ ...p.backup, state: 'disabled', description: 'drifted' }),
          })),
        },
      ],
    });

    const response = await post('/api/backups/ABC/restore', {
      tag: latest.tagName,
      policies: [chosen.resourcePath],
    });
    expect(response.statusCode).toBe(201);
    const restored = response.json() as BackupRestore;
    expect(restored.branch).toMatch(
      new RegExp(
        `^restore/ABC/${latest.tagName.replace(/[^A-Za-z0-9]/g, '-')}-objects-[0-9a-f]{12}$`,
      ),
    );
    const diff = await git.getCommitDiff(REPO, { branch: 'main' }, { branch: restored.branch });
    expect(diff.changes.filter((c) => !c.isFolder)).toEqual([
      expect.objectContaining({ path: chosen.path, changeType: 'edit' }),
    ]);
    const onBranch = await git.getFile(REPO, chosen.path, { version: { branch: restored.branch } });
    expect(JSON.parse(onBranch?.content ?? 'null')).toEqual(chosen.backup);
    const prs = (await get('/api/backups/ABC/restores')).json() as RestorePullRequestList;
    expect(prs.pullRequests.find((p) => p.pullRequestId === restored.pullRequestId)).toMatchObject({
      status: 'active',
      title: `Restore 1 policy of ABC from backup ${latest.tagName}`,
    });

    // the same choice again finds the first restore's pull request and overwrites nothing
    const again = await post('/api/backups/ABC/restore', {
      tag: latest.tagName,
      policies: [chosen.resourcePath],
    });
    expect(again.statusCode).toBe(409);
    // the whole restore of the same backup is a different branch and still possible
    const whole = await post('/api/backups/ABC/restore', { tag: latest.tagName });
    expect(whole.statusCode).toBe(201);
    expect((whole.json() as BackupRestore).branch).not.toBe(restored.branch);
  });

  it('refuses policies outside the client or in neither the backup nor main', async () => {
    const [latest] = (await list('ABC')).backups;
    const tag = latest?.tagName ?? '';
    const outside = await post('/api/backups/ABC/restore', {
      tag,
      policies: ['../../../XYZ/M365Config/Resources/a.json'],
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ field: 'policies' });
    const unknown = await post('/api/backups/ABC/restore', {
      tag,
      policies: ['ConditionalAccess/Policy/No such policy.json'],
    });
    expect(unknown.statusCode).toBe(404);
    expect((unknown.json() as { message: string }).message).toBe(
      `Policy ConditionalAccess/Policy/No such policy.json is neither in backup ${tag} nor in the configuration of ABC on main`,
    );
    const none = await post('/api/backups/ABC/restore', { tag, policies: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ field: 'body.policies' });
  });

  it('answers 400 naming the field for a restore without a tag', async () => {
    const response = await post('/api/backups/ABC/restore', {});
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'body.tag' });
  });
});

describe('manual backups without Table storage', () => {
  it('answers 503 naming it: no instance could tell another that a backup is running (ADR 060)', async () => {
    const t = await build();
    try {
      const response = await t.injectAs(SAMPLE_USER, {
        method: 'POST',
        url: '/api/backups/ABC/runs',
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().message).toBe(
        'Manual backups need Table storage, where the instances record the backup each client is running; it is not configured.',
      );
    } finally {
      await t.close();
    }
  });
});
