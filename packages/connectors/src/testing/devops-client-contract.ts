// The DevOps connector's contract: authentication failures, continuation tokens, pipeline runs,
// repository reads (folder as zip, items, files at a tag, commits), pushes with oldObjectId and
// TF401028, pull requests, and DevOps errors and throttling as ServiceErrors. A suite to run
// against anything that answers as Azure DevOps does, in a repository it fills itself: the
// emulators run it against themselves (ADR 076).
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { DevOpsClient, ZERO_OBJECT_ID, type RepositoryRef } from '../devops';
import { isServiceError, type ServiceError } from '../shared';

/** What the suite needs of an Azure DevOps organization. */
export interface DevOpsContractTarget {
  /** the organization URL, e.g. https://dev.azure.com/contoso */
  organizationUrl: string;
  /** a token of someone who may write the repository and run pipelines in its project */
  token: string;
  /** a second person's token: a branch policy does not count a pull request creator's own vote */
  reviewerToken: string;
  /** a token the organization refuses */
  rejectedToken: string;
  /** an empty Git repository for this suite alone (no commit, no branch) */
  repository: RepositoryRef;
  /** how many items a list answers in one page when no $top is sent */
  pageSize: number;
  runs: {
    /** holds the runs of a pipeline in progress until released; `entered` resolves when one is */
    hold: (pipelineId: number) => { entered: Promise<void>; release: () => void };
    /** resolves when no run is queued or in progress */
    settled: () => Promise<void>;
  };
  /** what the suite makes the service answer next, for requests whose path matches the pattern */
  faults: {
    /** 429 with Retry-After, `times` times (every time without it) */
    throttle: (pathPattern: string, retryAfterInSeconds: number, times?: number) => void;
    /** one 500 with the message */
    serverError: (pathPattern: string, message: string) => void;
    /** one 203 with the sign-in page (how DevOps answers a browser session it does not accept) */
    signInPage: (pathPattern: string) => void;
    clear: () => void;
  };
}

const EXCHANGE = '/Clients/ABC/Exchange';
const REMOTE_DOMAIN = `${EXCHANGE}/RemoteDomain/Default.json`;
/** What the suite writes to main first: two clients, one pipeline definition. */
const FIRST_FILES: Readonly<Record<string, string>> = {
  [REMOTE_DOMAIN]: '{"DomainName":"*","AutoReplyEnabled":false}\n',
  [`${EXCHANGE}/AcceptedDomain/abc.example.json`]: '{"DomainName":"abc.example"}\n',
  '/Clients/CON/readme.md': 'Contoso\n',
  '/pipelines/contract.yml': 'trigger: none\nsteps:\n  - script: echo contract\n',
};
const CHANGED_REMOTE_DOMAIN = '{"DomainName":"*","AutoReplyEnabled":true}\n';

async function caught(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (isServiceError(error)) return error;
    throw error;
  }
  throw new Error('expected a ServiceError');
}

/** Runs the DevOpsClient contract against `target()` (read when each test runs). */
export function describeDevOpsClientContract(
  name: string,
  target: () => DevOpsContractTarget,
): void {
  const sleeps: number[] = [];
  const client = (token = target().token): DevOpsClient =>
    new DevOpsClient({
      organizationUrl: target().organizationUrl,
      getToken: () => Promise.resolve(token),
      retry: {
        maxRetries: 2,
        sleep: (ms) => {
          sleeps.push(ms);
          return Promise.resolve();
        },
      },
    });
  const repo = () => target().repository;
  const mainCommit = async () =>
    (await client().listRefs(repo(), 'heads/main')).find((r) => r.name === 'refs/heads/main')
      ?.commitId ?? '';
  /** the first commit, tagged `contract/first`, then main with the remote domain changed */
  let firstCommit = '';
  let repositoryId = '';

  describe(`DevOpsClient against ${name}`, () => {
    beforeAll(async () => {
      const devops = client();
      repositoryId = (await devops.getRepository(repo()))?.id ?? '';
      const first = await devops.push(repo(), {
        branch: 'main',
        oldObjectId: ZERO_OBJECT_ID,
        commits: [
          {
            comment: 'Onboard ABC and CON',
            changes: Object.entries(FIRST_FILES).map(([path, content]) => ({
              changeType: 'add' as const,
              path,
              content,
            })),
          },
        ],
      });
      firstCommit = first.commitId;
      await devops.createAnnotatedTag(repo(), {
        name: 'contract/first',
        commitId: firstCommit,
        message: 'The first commit',
      });
      await devops.push(repo(), {
        branch: 'main',
        oldObjectId: firstCommit,
        commits: [
          {
            comment: 'Turn ABC auto replies on',
            changes: [{ changeType: 'edit', path: REMOTE_DOMAIN, content: CHANGED_REMOTE_DOMAIN }],
          },
        ],
      });
    });

    beforeEach(() => {
      target().faults.clear();
      sleeps.length = 0;
    });

    describe('authentication', () => {
      it('answers 401 with the DevOps error body without a token', async () => {
        const response = await fetch(`${target().organizationUrl}/_apis/projects?api-version=7.1`);
        expect(response.status).toBe(401);
        const body = (await response.json()) as Record<string, unknown>;
        expect(body['typeKey']).toBe('UnauthorizedRequestException');
        expect(body['message']).toMatch(/^TF400813/);
      });

      it('surfaces a rejected token as a ServiceError 401', async () => {
        const error = await caught(client(target().rejectedToken).listProjects());
        expect(error.statusCode).toBe(401);
        expect(error.code).toBe('UnauthorizedRequestException');
      });

      it('treats the 203 sign-in page as an authentication failure', async () => {
        target().faults.signInPage('/_apis/projects');
        const error = await caught(client().listProjects());
        expect(error).toMatchObject({
          statusCode: 401,
          code: 'SignInPageReturned',
          service: 'devops',
        });
      });

      it('rejects a request without api-version', async () => {
        const response = await fetch(`${target().organizationUrl}/_apis/projects`, {
          headers: { authorization: `Bearer ${target().token}` },
        });
        expect(response.status).toBe(400);
        expect(((await response.json()) as { typeKey: string }).typeKey).toBe(
          'VssVersionNotSpecifiedException',
        );
      });
    });

    describe('pipelines', () => {
      it('creates pipelines and lists them across continuation-token pages', async () => {
        const { project } = repo();
        const names = Array.from(
          { length: target().pageSize + 1 },
          (_, i) => `Contract ${String(i + 1)}`,
        );
        const created = [];
        for (const pipelineName of names) {
          created.push(
            await client().createPipeline(project, {
              name: pipelineName,
              folder: '\\Contract',
              yamlPath: '/pipelines/contract.yml',
              repositoryId,
            }),
          );
        }
        const duplicate = await caught(
          client().createPipeline(project, {
            name: names[0] ?? '',
            folder: '\\Contract',
            yamlPath: '/pipelines/contract.yml',
            repositoryId,
          }),
        );
        expect(duplicate).toMatchObject({ statusCode: 409, code: 'DefinitionExistsException' });
        const listed = await client().listPipelines(project);
        expect(listed.filter((p) => p.folder === '\\Contract').map((p) => p.name)).toEqual(
          expect.arrayContaining(names),
        );
        expect(listed.map((p) => p.id)).toEqual(expect.arrayContaining(created.map((p) => p.id)));
      });

      it('runs a pipeline: notStarted → inProgress → completed/succeeded', async () => {
        const { project } = repo();
        const pipeline = await client().createPipeline(project, {
          name: 'Contract run',
          folder: '\\Contract',
          yamlPath: '/pipelines/contract.yml',
          repositoryId,
        });
        const held = target().runs.hold(pipeline.id);
        try {
          const run = await client().runPipeline(project, pipeline.id, {
            templateParameters: { ClientCode: 'ABC' },
            variables: { TenantAdminUserPW: { value: 'secret', isSecret: true } },
            stagesToSkip: [],
          });
          expect(run.state).toBe('notStarted');
          await held.entered;
          expect(await client().getRun(project, pipeline.id, run.id)).toMatchObject({
            state: 'inProgress',
          });
          held.release();
          await target().runs.settled();
          expect(await client().getRun(project, pipeline.id, run.id)).toMatchObject({
            state: 'completed',
            result: 'succeeded',
          });
          expect(await client().getRun(project, pipeline.id, 999_999)).toBeUndefined();
        } finally {
          held.release();
        }
      });
    });

    describe('repository reads', () => {
      it('reads a folder in two requests (listing + zip), as main has it', async () => {
        const snapshot = await client().readFolder(repo(), EXCHANGE);
        expect(snapshot?.commitId).toBe(await mainCommit());
        const expected = Object.entries(FIRST_FILES)
          .filter(([path]) => path.startsWith(`${EXCHANGE}/`))
          .map(([path, content]) => ({
            path,
            content: path === REMOTE_DOMAIN ? CHANGED_REMOTE_DOMAIN : content,
          }));
        expect(
          snapshot?.files
            .map(({ path, content }) => ({ path, content }))
            .sort((a, b) => a.path.localeCompare(b.path)),
        ).toEqual(expected.sort((a, b) => a.path.localeCompare(b.path)));
        expect(await client().readFolder(repo(), '/Clients/XYZ')).toBeUndefined();
      });

      it('lists items one level and reads a file at a tag', async () => {
        const items = await client().listItems(repo(), '/Clients');
        expect(items.filter((i) => i.isFolder && i.path !== '/Clients').map((i) => i.path)).toEqual(
          ['/Clients/ABC', '/Clients/CON'],
        );
        const [tag] = await client().listRefs(repo(), 'tags/contract/');
        expect(tag).toMatchObject({ name: 'refs/tags/contract/first', commitId: firstCommit });
        expect((await client().getAnnotatedTag(repo(), tag?.objectId ?? ''))?.message).toContain(
          'The first commit',
        );
        const atTag = await client().getFile(repo(), REMOTE_DOMAIN, {
          version: { tag: 'contract/first' },
        });
        expect(atTag?.content).toBe(FIRST_FILES[REMOTE_DOMAIN]);
        expect((await client().getFile(repo(), REMOTE_DOMAIN))?.content).toBe(
          CHANGED_REMOTE_DOMAIN,
        );
        expect(await client().getFile(repo(), '/nope.json')).toBeUndefined();
      });

      it("lists a path's commits newest first, from a version, at most top", async () => {
        const all = await client().listCommits(repo(), { itemPath: '/Clients/ABC' });
        expect(all.map((c) => c.comment)).toEqual([
          'Turn ABC auto replies on',
          'Onboard ABC and CON',
        ]);
        const fromFirst = await client().listCommits(repo(), {
          itemPath: '/Clients/ABC',
          version: { commit: firstCommit },
          top: 1,
        });
        expect(fromFirst.map((c) => c.commitId)).toEqual([firstCommit]);
        const onlyCon = await client().listCommits(repo(), { itemPath: '/Clients/CON' });
        expect(onlyCon.map((c) => c.commitId)).toEqual([firstCommit]);
      });
    });

    describe('writes', () => {
      it('pushes a new branch, rejects a stale oldObjectId with 409 TF401028, and opens a PR', async () => {
        const base = await mainCommit();
        const branch = 'restore/ABC/contract';
        const pushed = await client().push(repo(), {
          branch,
          oldObjectId: base,
          commits: [
            {
              comment: 'Restore ABC',
              changes: [
                { changeType: 'add', path: '/Clients/ABC/restore-note.md', content: 'restored\n' },
                { changeType: 'edit', path: REMOTE_DOMAIN, content: '{}\n' },
              ],
            },
          ],
        });
        expect(pushed.oldObjectId).toBe(ZERO_OBJECT_ID);
        const stale = await caught(
          client().push(repo(), {
            branch,
            oldObjectId: base,
            commits: [
              {
                comment: 'again',
                changes: [{ changeType: 'delete', path: '/Clients/ABC/restore-note.md' }],
              },
            ],
          }),
        );
        expect(stale.statusCode).toBe(409);
        expect(stale.code).toBe('GitReferenceStaleException');
        expect(stale.message).toBe(
          `TF401028: The reference 'refs/heads/${branch}' has already been updated by another client, so you cannot update it. Please try again.`,
        );

        const diff = await client().getCommitDiff(repo(), { branch: 'main' }, { branch });
        expect(diff.aheadCount).toBe(1);
        expect(diff.changeCounts).toEqual({ Add: 1, Edit: 1 });

        const pr = await client().createPullRequest(repo(), {
          sourceRefName: `refs/heads/${branch}`,
          targetRefName: 'refs/heads/main',
          title: 'Restore ABC',
          description: 'Restore from backup',
          labels: ['restore'],
        });
        expect(pr).toMatchObject({ status: 'active', labels: ['restore'] });
        const duplicate = await caught(
          client().createPullRequest(repo(), {
            sourceRefName: `refs/heads/${branch}`,
            targetRefName: 'refs/heads/main',
            title: 'again',
          }),
        );
        expect(duplicate).toMatchObject({ statusCode: 409, code: 'GitPullRequestExistsException' });
        const active = await client().listPullRequests(repo(), {
          status: 'active',
          targetRefName: 'refs/heads/main',
        });
        expect(active.map((p) => p.pullRequestId)).toContain(pr.pullRequestId);
        const completed = await client().listPullRequests(repo(), { status: 'completed' });
        expect(completed.map((p) => p.pullRequestId)).not.toContain(pr.pullRequestId);
        expect((await client().getPullRequest(repo(), pr.pullRequestId))?.title).toBe(
          'Restore ABC',
        );
        expect(await client().getPullRequest(repo(), 99_999)).toBeUndefined();
      });

      it('reads changed blobs in one request, and completing a PR deletes its source branch when asked', async () => {
        const branch = 'client-ABC-capture-contract';
        await client().push(repo(), {
          branch,
          oldObjectId: await mainCommit(),
          commits: [
            {
              comment: 'Capture',
              changes: [{ changeType: 'edit', path: REMOTE_DOMAIN, content: '{"a":1}\n' }],
            },
          ],
        });
        const diff = await client().getCommitDiff(
          repo(),
          { branch: 'main' },
          { branch },
          { diffCommonCommit: false },
        );
        const change = diff.changes.find((c) => c.path === REMOTE_DOMAIN);
        const ids = [change?.objectId ?? '', change?.originalObjectId ?? ''];
        const blobs = await client().getBlobs(repo(), ids);
        expect(blobs.get(ids[0] ?? '')).toBe('{"a":1}\n');
        expect(blobs.get(ids[1] ?? '')).toBe(CHANGED_REMOTE_DOMAIN);
        const missing = await caught(client().getBlobs(repo(), [ZERO_OBJECT_ID]));
        expect(missing.statusCode).toBe(404);

        const pr = await client().createPullRequest(repo(), {
          sourceRefName: `refs/heads/${branch}`,
          targetRefName: 'refs/heads/main',
          title: 'Capture ABC',
          completionOptions: { deleteSourceBranch: true },
        });
        expect(pr.completionOptions).toEqual({ deleteSourceBranch: true });
        // the connector neither votes nor completes (people do, in DevOps): the REST calls
        const { project, repository } = repo();
        const prUrl = `${target().organizationUrl}/${encodeURIComponent(project)}/_apis/git/repositories/${encodeURIComponent(repository)}/pullrequests/${String(pr.pullRequestId)}`;
        const vote = await fetch(`${prUrl}/reviewers/me?api-version=7.1`, {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${target().reviewerToken}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ vote: 10 }),
        });
        expect(vote.status).toBe(200);
        const done = await fetch(`${prUrl}?api-version=7.1`, {
          method: 'PATCH',
          headers: {
            authorization: `Bearer ${target().token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ status: 'completed' }),
        });
        expect(done.status).toBe(200);
        const completed = await client().listPullRequests(repo(), {
          status: 'completed',
          targetRefName: 'refs/heads/main',
          top: 1000,
        });
        const found = completed.find((p) => p.pullRequestId === pr.pullRequestId);
        expect(found?.closedBy?.uniqueName).toBeTruthy();
        expect(found?.reviewers.map((r) => r.vote)).toEqual([10]);
        expect(await client().listRefs(repo(), `heads/${branch}`)).toEqual([]);
        expect((await client().getFile(repo(), REMOTE_DOMAIN))?.content).toBe('{"a":1}\n');
      });
    });

    describe('faults', () => {
      it('retries a 429 after the Retry-After the service gave', async () => {
        target().faults.throttle('/_apis/projects', 2, 1);
        const projects = await client().listProjects();
        expect(projects.map((p) => p.name)).toContain(repo().project);
        expect(sleeps).toEqual([2000]);
      });

      it('gives up after the retries with the service message', async () => {
        target().faults.throttle('/_apis/projects', 1);
        const error = await caught(client().listProjects());
        expect(error).toMatchObject({ statusCode: 429, retryAfterInMs: 1000 });
        expect(error.message).toMatch(/^TF400733/);
        expect(sleeps).toEqual([1000, 1000]);
      });

      it('surfaces a 500 as a ServiceError with the service text and request id, without retrying', async () => {
        target().faults.serverError('/pipelines$', 'VS402901: boom');
        const error = await caught(client().listPipelines(repo().project));
        expect(error).toMatchObject({
          statusCode: 500,
          message: 'VS402901: boom',
          code: 'VssServiceException',
        });
        expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
        expect(sleeps).toEqual([]);
      });
    });
  });
}
