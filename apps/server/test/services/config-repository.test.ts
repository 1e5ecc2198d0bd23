import { DevOpsClient } from '@aegis/connectors/devops';
import {
  ConfigRepository,
  createConfigRepositoryShared,
  parsedTreeBytes,
  ProposeChangeError,
  type ConfigRepositoryShared,
} from '@aegis/connectors/repository';
import {
  acceptedDeviationsPath,
  BASELINE_ROOT,
  clientResourcesRoot,
  ConflictError,
} from '@aegis/domain';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '@aegis/emulators';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startSeededDevOpsForUser, type SeededDevOpsForUser } from '../devops-fixture';

const REPO = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
const QUEUE = { branch: 'write-queue' };

describe('ConfigRepository against the DevOps emulator (real git)', () => {
  let devops: SeededDevOpsForUser;

  const client = () =>
    new DevOpsClient({
      organizationUrl: devops.emulator.url,
      getToken: () => Promise.resolve(devops.token),
      retry: { maxRetries: 0 },
    });
  const repository = (shared: ConfigRepositoryShared = createConfigRepositoryShared(REPO)) =>
    new ConfigRepository(client(), shared);

  beforeAll(async () => {
    devops = await startSeededDevOpsForUser();
    // The write queue is exercised on a branch of its own: main is protected by a branch policy
    // that only the Aegis service identity may bypass (ADR 051).
    const [main] = await client().listRefs(REPO, 'heads/main');
    await client().updateRefs(REPO, [
      {
        name: `refs/heads/${QUEUE.branch}`,
        oldObjectId: '0'.repeat(40),
        newObjectId: main!.objectId,
      },
    ]);
  });

  it("is refused on main with the user's own token (TF402455), and a main writer takes only Aegis's files", async () => {
    const own = await repository()
      .updateJsonFile('/Clients/ABC/.accepted-deviations.json', () => ({ a: 1 }), 'direct')
      .catch((error: Error) => error);
    expect(own).toMatchObject({ statusCode: 403, code: 'GitRefUpdateRejectedByPolicyException' });
    const withWriter = new ConfigRepository(
      client(),
      createConfigRepositoryShared(REPO),
      () => '',
      {
        devops: client(),
        actor: () => ({ name: 'Sam Taylor', email: 'sam.taylor@aegis-msp.example' }),
      },
    );
    const outside = await withWriter
      .updateJsonFile('/M365Config/Resources/Intune/x.json', () => ({ a: 1 }), 'sneak')
      .catch((error: Error) => error);
    expect(outside).toMatchObject({ name: 'NotAllowedError' });
  });
  afterEach(() => devops.emulator.faults.clear());
  afterAll(async () => {
    await devops.close();
  });

  it('reads a tree in one listing and one zip, then serves it from the cache by tree id', async () => {
    const shared = createConfigRepositoryShared(REPO);
    const api = client();
    let downloads = 0;
    const readFolder = api.readFolder.bind(api);
    api.readFolder = (...args) => {
      downloads += 1;
      return readFolder(...args);
    };
    const repo = new ConfigRepository(api, shared);
    const first = await repo.readTree(clientResourcesRoot('ABC'));
    expect(first?.files.length).toBeGreaterThan(0);
    expect(first?.files.every((f) => f.path.startsWith('/Clients/ABC/M365Config/Resources/'))).toBe(
      true,
    );
    expect(downloads).toBe(1);
    const again = await new ConfigRepository(api, shared).readTree(clientResourcesRoot('ABC'));
    expect(again).toBe(first);
    expect(downloads).toBe(1);
    expect(await repo.readTree('/Clients/ZZZ')).toBeUndefined();
    const [baseline] = await repo.readTrees([BASELINE_ROOT]);
    expect(baseline?.treeId).toMatch(/^[0-9a-f]{40}$/);
  });

  it('keeps parsed trees within its heap budget, dropping the least recently read (ADR 077)', async () => {
    const api = client();
    let downloads = 0;
    const readFolder = api.readFolder.bind(api);
    api.readFolder = (...args) => {
      downloads += 1;
      return readFolder(...args);
    };
    const sizeOf = async (code: string) =>
      parsedTreeBytes((await repository().readTree(clientResourcesRoot(code)))!);
    const [abc, con] = [await sizeOf('ABC'), await sizeOf('CON')];
    // room for either tree alone, not for both
    const shared = createConfigRepositoryShared(REPO, { treeCacheBytes: Math.max(abc, con) + 1 });
    const repo = new ConfigRepository(api, shared);
    await repo.readTree(clientResourcesRoot('ABC'));
    await repo.readTree(clientResourcesRoot('CON'));
    expect(shared.trees.calculatedSize).toBe(con);
    await repo.readTree(clientResourcesRoot('CON'));
    expect(downloads).toBe(2);
    await repo.readTree(clientResourcesRoot('ABC'));
    expect(downloads).toBe(3);
    expect(shared.trees.calculatedSize).toBe(abc);
  });

  it('20 concurrent reads of one tree, by 20 users, make one zip read and get what a read alone gets', async () => {
    const shared = createConfigRepositoryShared(REPO);
    const api = client();
    let downloads = 0;
    const readFolder = api.readFolder.bind(api);
    api.readFolder = (...args) => {
      downloads += 1;
      return readFolder(...args);
    };
    const folder = clientResourcesRoot('CON');
    const trees = await Promise.all(
      Array.from({ length: 20 }, () => new ConfigRepository(api, shared).readTree(folder)),
    );
    expect(downloads).toBe(1);
    // every caller gets the one parsed tree, equal to a read that joins nobody
    const alone = await repository().readTree(folder);
    expect(alone?.files.length).toBeGreaterThan(0);
    for (const tree of trees) expect(tree).toBe(trees[0]);
    expect(trees[0]).toEqual(alone);
  });

  it('a failed tree read fails everyone who joined it and is not kept: the next read reads again', async () => {
    const shared = createConfigRepositoryShared(REPO);
    const folder = clientResourcesRoot('FAB');
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 503,
      pathPattern: '/items',
      queryPattern: 'format=zip',
      message: 'archive service down',
    });
    const failed = await Promise.allSettled(
      Array.from({ length: 5 }, () => repository(shared).readTree(folder)),
    );
    expect(failed.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    devops.emulator.faults.clear();
    const tree = await repository(shared).readTree(folder);
    expect(tree).toEqual(await repository().readTree(folder));
  });

  it('reads a file at a commit once (joined, then cached by commit id); at a branch every time', async () => {
    const shared = createConfigRepositoryShared(REPO);
    const api = client();
    let reads = 0;
    const getFile = api.getFile.bind(api);
    api.getFile = (...args) => {
      reads += 1;
      return getFile(...args);
    };
    const repo = new ConfigRepository(api, shared);
    const path = acceptedDeviationsPath('CON');
    const tip = await repo.branchTip();
    const files = await Promise.all(
      Array.from({ length: 10 }, () =>
        new ConfigRepository(api, shared).readText(path, { commit: tip }),
      ),
    );
    expect(await repo.readText(path, { commit: tip })).toBe(files[0]);
    expect(reads).toBe(1);
    expect(files[0]).toEqual(await repository().readText(path, { commit: tip }));
    // a file the commit lacks stays absent
    expect(await repo.readText('/Clients/CON/none.json', { commit: tip })).toBeUndefined();
    expect(await repo.readText('/Clients/CON/none.json', { commit: tip })).toBeUndefined();
    expect(reads).toBe(2);
    // a branch moves: never answered from the cache
    await repo.readText(path, QUEUE);
    await repo.readText(path, QUEUE);
    expect(reads).toBe(4);
  });

  it('lists a folder at a commit once (joined, then cached by commit id); at a branch every time (ADR 088)', async () => {
    const shared = createConfigRepositoryShared(REPO);
    const api = client();
    let listings = 0;
    const listItems = api.listItems.bind(api);
    api.listItems = (...args) => {
      listings += 1;
      return listItems(...args);
    };
    const repo = new ConfigRepository(api, shared);
    const folder = clientResourcesRoot('CON');
    const tip = await repo.branchTip();
    const trees = await Promise.all(
      Array.from({ length: 10 }, () =>
        new ConfigRepository(api, shared).readTree(folder, { commit: tip }),
      ),
    );
    expect(listings).toBe(1);
    expect(await repo.readTree(folder, { commit: tip })).toBe(trees[0]);
    expect(listings).toBe(1);
    // one level and the full depth are two listings; an absent folder stays absent
    expect((await repo.listChildren(folder, { commit: tip })).length).toBeGreaterThan(0);
    await repo.listChildren(folder, { commit: tip });
    expect(await repo.readTree('/Clients/ZZZ', { commit: tip })).toBeUndefined();
    expect(await repo.readTree('/Clients/ZZZ', { commit: tip })).toBeUndefined();
    expect(listings).toBe(3);
    // a branch moves: never answered from the cache
    await repo.readTree(folder, QUEUE);
    await repo.readTree(folder, QUEUE);
    expect(listings).toBe(5);
  });

  it('reads JSON: a missing file is absent, not an error', async () => {
    const repo = repository();
    expect(await repo.readJson('/Clients/ABC/.does-not-exist.json')).toBeUndefined();
    const doc = await repo.readJson<Record<string, unknown>>(acceptedDeviationsPath('CON'));
    expect(doc).toBeTypeOf('object');
  });

  it('50 concurrent updateJsonFile calls through one app each add their entry: 50 entries', async () => {
    const shared = createConfigRepositoryShared(REPO);
    const path = '/Clients/ABC/.concurrency-one-app.json';
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        repository(shared).updateJsonFile<{ entries: number[] }>(
          path,
          (doc) => ({ entries: [...(doc?.entries ?? []), i] }),
          `Add entry ${i}`,
          QUEUE,
        ),
      ),
    );
    expect(results.every((r) => r.changed)).toBe(true);
    const stored = await repository().readJson<{ entries: number[] }>(path, QUEUE);
    expect([...(stored?.entries ?? [])].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
  });

  it('concurrent writers that share nothing (as separate servers) still lose nothing: stale refs are retried', async () => {
    const path = '/Clients/FAB/.concurrency-many-servers.json';
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        // a shared object per writer: no in-process queue, every writer races on the ref
        repository(createConfigRepositoryShared(REPO)).updateJsonFile<Record<string, boolean>>(
          path,
          (doc) => ({ ...doc, [`writer-${i}`]: true }),
          `Add writer ${i}`,
          QUEUE,
        ),
      ),
    );
    expect(results.some((r) => r.retries > 0)).toBe(true);
    const stored = await repository().readJson<Record<string, boolean>>(path, QUEUE);
    expect(Object.keys(stored ?? {})).toHaveLength(5);
  }, 120_000);

  it('fails only the caller whose mutation throws', async () => {
    const shared = createConfigRepositoryShared(REPO);
    const path = '/Clients/CON/.one-fails.json';
    const outcomes = await Promise.allSettled(
      [0, 1, 2].map((i) =>
        repository(shared).updateJsonFile<number[]>(
          path,
          (doc) => {
            if (i === 1) throw new Error('refused');
            return [...(doc ?? []), i];
          },
          `entry ${i}`,
          QUEUE,
        ),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await repository().readJson(path, QUEUE)).toEqual([0, 2]);
  });

  it('writes nothing when the mutation asks for no change', async () => {
    const repo = repository();
    const path = '/Clients/NWT/.unchanged.json';
    const first = await repo.updateJsonFile(path, () => ({ a: 1 }), 'create', QUEUE);
    const second = await repo.updateJsonFile<{ a: number }>(path, (doc) => doc, 'same', QUEUE);
    expect(second.changed).toBe(false);
    expect(second.commitId).toBe(first.commitId);
  });

  it('proposes a change: branch, one commit, pull request', async () => {
    const repo = repository();
    const result = await repo.proposeChange({
      branch: 'proposal/ABC/one',
      commit: {
        comment: 'Add a note',
        changes: [{ changeType: 'add', path: '/Clients/ABC/note.txt', content: 'hello\n' }],
      },
      pullRequest: { title: 'A note', labels: ['test'] },
    });
    expect(result.reusedBranch).toBe(false);
    expect(result.pullRequest.sourceRefName).toBe('refs/heads/proposal/ABC/one');
    expect(result.pullRequest.targetRefName).toBe('refs/heads/main');
    expect(await repo.readJson('/Clients/ABC/note.txt', { branch: 'main' })).toBeUndefined();
    const onBranch = await repo.readText('/Clients/ABC/note.txt', { branch: 'proposal/ABC/one' });
    expect(onBranch?.text).toBe('hello\n');
    // Once it has a pull request the branch is never touched again.
    await expect(
      repo.proposeChange({
        branch: 'proposal/ABC/one',
        commit: { comment: 'x', changes: [{ changeType: 'add', path: '/x', content: 'x' }] },
        pullRequest: { title: 'again' },
      }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('removes the branch it pushed when the pull request fails', async () => {
    const repo = repository();
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      method: 'POST',
      pathPattern: '/pullrequests',
      message: 'PR service down',
    });
    await expect(
      repo.proposeChange({
        branch: 'proposal/ABC/two',
        commit: {
          comment: 'Add',
          changes: [{ changeType: 'add', path: '/Clients/ABC/two.txt', content: '2' }],
        },
        pullRequest: { title: 'two' },
      }),
    ).rejects.toBeInstanceOf(ProposeChangeError);
    expect(await repo.findRef('refs/heads/proposal/ABC/two')).toBeUndefined();
  });

  it('finishes a half-made proposal on retry when neither the pull request nor the clean-up went through', async () => {
    const repo = repository();
    const change = {
      branch: 'proposal/ABC/three',
      commit: {
        comment: 'Add',
        changes: [{ changeType: 'add' as const, path: '/Clients/ABC/three.txt', content: '3' }],
      },
      pullRequest: { title: 'three' },
    };
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      method: 'POST',
      pathPattern: '/pullrequests',
    });
    devops.emulator.faults.add({
      kind: 'error',
      statusCode: 500,
      method: 'POST',
      pathPattern: '/refs$',
    });
    await expect(repo.proposeChange(change)).rejects.toBeInstanceOf(ProposeChangeError);
    expect(await repo.findRef('refs/heads/proposal/ABC/three')).toBeDefined();
    devops.emulator.faults.clear();
    const retried = await repo.proposeChange(change);
    expect(retried.reusedBranch).toBe(true);
    expect(retried.pullRequest.sourceRefName).toBe('refs/heads/proposal/ABC/three');
  });
});
