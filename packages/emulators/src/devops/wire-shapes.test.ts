// The emulator's responses carry the field names of Microsoft's published Azure DevOps REST API
// (shared/reference/azure-devops-rest.md, sections cited per operation): every documented field a
// response must have is there, and no field outside the documented ones appears.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { ZERO_OBJECT_ID } from '@aegis/connectors/devops';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SAMPLE_PROJECTS } from '../seed/seed-devops';

import type { DevOpsEmulator } from './server';

import { startDevOpsEmulator } from './index';

interface Shape {
  required: string[];
  optional?: string[];
}

/** Documented fields per operation (reference section in brackets). */
const SHAPES: Record<string, Shape> = {
  list: { required: ['count', 'value'] }, // §1.2
  error: {
    required: ['$id', 'innerException', 'message', 'typeName', 'typeKey', 'errorCode', 'eventId'],
  }, // §1.5
  project: {
    required: ['id', 'name', 'url', 'state', 'revision', 'visibility', 'lastUpdateTime'],
    optional: ['description', 'abbreviation', 'defaultTeamImageUrl'],
  }, // §3.1
  pipeline: {
    required: ['_links', 'url', 'id', 'revision', 'name', 'folder'],
    optional: ['configuration'],
  }, // §4.1
  run: {
    required: [
      '_links',
      'pipeline',
      'state',
      'createdDate',
      'url',
      'id',
      'name',
      'resources',
      'templateParameters',
    ],
    optional: ['result', 'finishedDate', 'variables', 'finalYaml'],
  }, // §4.3
  repository: {
    required: [
      'id',
      'name',
      'url',
      'project',
      'remoteUrl',
      'sshUrl',
      'webUrl',
      'size',
      'isDisabled',
    ],
    optional: [
      'defaultBranch',
      'isInMaintenance',
      'isFork',
      'parentRepository',
      'validRemoteUrls',
      '_links',
    ],
  }, // §5.1
  item: {
    required: ['objectId', 'gitObjectType', 'commitId', 'path', 'url'],
    optional: [
      'originalObjectId',
      'isFolder',
      'isSymLink',
      'contentMetadata',
      'content',
      'latestProcessedChange',
      '_links',
    ],
  }, // §5.2, §5.3
  ref: {
    required: ['name', 'objectId', 'url'],
    optional: ['peeledObjectId', 'creator', 'isLocked', 'isLockedBy', 'statuses'],
  }, // §5.5
  refUpdateResult: {
    required: [
      'repositoryId',
      'name',
      'oldObjectId',
      'newObjectId',
      'isLocked',
      'success',
      'updateStatus',
    ],
    optional: ['customMessage', 'rejectedBy'],
  }, // §5.6
  annotatedTag: { required: ['name', 'objectId', 'taggedObject', 'taggedBy', 'message', 'url'] }, // §5.7
  push: {
    required: ['pushId', 'date', 'url', 'pushedBy', 'refUpdates', 'commits'],
    optional: ['repository', '_links'],
  }, // §5.8
  pushCommit: {
    required: ['commitId', 'treeId', 'author', 'committer', 'comment', 'parents', 'url'],
  }, // §5.8
  commitDiffs: {
    required: [
      'allChangesIncluded',
      'changeCounts',
      'changes',
      'commonCommit',
      'baseCommit',
      'targetCommit',
      'aheadCount',
      'behindCount',
    ],
  }, // §5.9
  pullRequest: {
    required: [
      'pullRequestId',
      'codeReviewId',
      'status',
      'createdBy',
      'creationDate',
      'title',
      'description',
      'sourceRefName',
      'targetRefName',
      'mergeStatus',
      'mergeId',
      'lastMergeSourceCommit',
      'lastMergeTargetCommit',
      'reviewers',
      'isDraft',
      'supportsIterations',
      'artifactId',
      'repository',
      'url',
      '_links',
    ],
    optional: ['labels', 'lastMergeCommit', 'closedDate', 'closedBy', 'completionOptions'],
  }, // §5.10
};

function expectShape(value: unknown, shape: keyof typeof SHAPES): void {
  const { required, optional = [] } = SHAPES[shape] ?? { required: [] };
  const keys = Object.keys(value as object);
  expect(keys, `${shape} is missing documented fields`).toEqual(expect.arrayContaining(required));
  const unknown = keys.filter((k) => !required.includes(k) && !optional.includes(k));
  expect(unknown, `${shape} has undocumented fields`).toEqual([]);
}

let dataDir: string;
let emulator: DevOpsEmulator;
const project = encodeURIComponent(SAMPLE_PROJECTS.tenantManagement);
const repo = `${project}/_apis/git/repositories/M365Config`;

async function call(
  url: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(
    `${emulator.url}/${url}${url.includes('?') ? '&' : '?'}api-version=7.1`,
    {
      method: init.method ?? 'GET',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const first = (body: Record<string, unknown>) => (body['value'] as unknown[])[0];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-shapes-'));
  emulator = await startDevOpsEmulator({ dataDir, pipelineDurationInMs: 50 });
});

afterAll(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('emulator wire shapes', () => {
  it('core and pipelines', async () => {
    const projects = await call('_apis/projects');
    expectShape(projects.body, 'list');
    expectShape(first(projects.body), 'project');
    const pipelines = await call(`${project}/_apis/pipelines`);
    expectShape(first(pipelines.body), 'pipeline');
    const pipeline = first(pipelines.body) as {
      _links: { self: { href: string } };
      folder: string;
    };
    expect(pipeline._links.self.href.split('/')[4]).toMatch(/^[0-9a-f-]{36}$/);
    expect(pipeline.folder.startsWith('\\')).toBe(true);
    const run = await call(`${project}/_apis/pipelines/216/runs`, {
      method: 'POST',
      body: {
        resources: { repositories: { self: { refName: 'refs/heads/main' } } },
        templateParameters: { ClientCode: 'ABC' },
      },
    });
    expect(run.status).toBe(200);
    expectShape(run.body, 'run');
    await emulator.runner.waitForIdle();
    const done = await call(`${project}/_apis/pipelines/216/runs/${String(run.body['id'])}`);
    expectShape(done.body, 'run');
    expect(done.body).toMatchObject({ state: 'completed', result: 'succeeded' });
  });

  it('git reads', async () => {
    expectShape(first((await call(`${project}/_apis/git/repositories`)).body), 'repository');
    const items = await call(`${repo}/items?scopePath=/M365Config&recursionLevel=Full`);
    for (const item of items.body['value'] as unknown[]) expectShape(item, 'item');
    expectShape((await call(`${repo}/items?path=/README.md&includeContent=true`)).body, 'item');
    const refs = await call(`${repo}/refs?filter=tags/backup/&peelTags=true`);
    const tag = first(refs.body) as Record<string, string>;
    expectShape(tag, 'ref');
    expect(tag['peeledObjectId']).toMatch(/^[0-9a-f]{40}$/);
    expectShape((await call(`${repo}/annotatedtags/${tag['objectId']}`)).body, 'annotatedTag');
    const diff = await call(
      `${repo}/diffs/commits?baseVersion=${tag['name']?.replace('refs/tags/', '')}&baseVersionType=tag&targetVersion=main`,
    );
    expectShape(diff.body, 'commitDiffs');
    expect(Object.keys(diff.body['changeCounts'] as object).every((k) => /^[A-Z]/.test(k))).toBe(
      true,
    );
    const missing = await call(`${repo}/items?path=/does-not-exist.json`);
    expect(missing.status).toBe(404);
    expectShape(missing.body, 'error');
  });

  it('git writes', async () => {
    const main = first((await call(`${repo}/refs?filter=heads/main`)).body) as Record<
      string,
      string
    >;
    const refs = await call(`${repo}/refs`, {
      method: 'POST',
      body: [
        {
          name: 'refs/heads/shape-test',
          oldObjectId: ZERO_OBJECT_ID,
          newObjectId: main['objectId'],
        },
      ],
    });
    expect(refs.status).toBe(200);
    expectShape(first(refs.body), 'refUpdateResult');
    const push = await call(`${repo}/pushes`, {
      method: 'POST',
      body: {
        refUpdates: [{ name: 'refs/heads/shape-test', oldObjectId: main['objectId'] }],
        commits: [
          {
            comment: 'shape',
            changes: [
              {
                changeType: 1,
                item: { path: '/shape.txt' },
                newContent: { content: 'x', contentType: 0 },
              },
            ],
          },
        ],
      },
    });
    expect(push.status).toBe(201);
    expectShape(push.body, 'push');
    expectShape((push.body['commits'] as unknown[])[0], 'pushCommit');
    const pr = await call(`${repo}/pullrequests`, {
      method: 'POST',
      body: {
        sourceRefName: 'refs/heads/shape-test',
        targetRefName: 'refs/heads/main',
        title: 'Shape',
      },
    });
    expect(pr.status).toBe(201);
    expectShape(pr.body, 'pullRequest');
    const listed = await call(
      `${repo}/pullrequests?searchCriteria.status=active&searchCriteria.targetRefName=refs/heads/main`,
    );
    expectShape(first(listed.body), 'pullRequest');
    const stale = await call(`${repo}/pushes`, {
      method: 'POST',
      body: {
        refUpdates: [{ name: 'refs/heads/shape-test', oldObjectId: main['objectId'] }],
        commits: [
          { comment: 'stale', changes: [{ changeType: 'delete', item: { path: '/shape.txt' } }] },
        ],
      },
    });
    expect(stale.status).toBe(409);
    expectShape(stale.body, 'error');
    expect(stale.body['typeKey']).toBe('GitReferenceStaleException');
  });
});
