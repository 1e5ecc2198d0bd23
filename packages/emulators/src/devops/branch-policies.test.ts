// Branch policies on the seeded configuration repository, through the real DevOps connector: a
// technician's own token can no longer change main alone (issue 26 §1, ADR 051).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { isServiceError, type ServiceError } from '@aegis/connectors';
import {
  DevOpsClient,
  MINIMUM_REVIEWERS_POLICY_TYPE,
  type RepositoryRef,
} from '@aegis/connectors/devops';
import { MAIN_REF } from '@aegis/domain';
import { UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '../seed/seed-devops';
import { AEGIS_ENTERPRISE_APP } from '../tenants/world';

import type { DevOpsEmulator } from './server';

import { startDevOpsEmulator } from './index';

const PROJECT = SAMPLE_PROJECTS.tenantManagement;
const REPO: RepositoryRef = { project: PROJECT, repository: CONFIG_REPOSITORY_NAME };

// The emulator reads who calls from the token (signatures are checked by the embedder's verifier).
const userToken = (oid: string, upn: string) =>
  new UnsecuredJWT({ oid, upn, name: upn.split('@')[0] }).encode();
const SAM = userToken('c4a9e2f3-6b7d-48e1-a0f5-2d9c8b7e6a33', 'sam.taylor@aegis-msp.example');
const PRIYA = userToken('8d2e4c71-91b3-4f0a-b6c2-3e5f7a9d1b22', 'priya.shah@aegis-msp.example');
const AEGIS_APP = new UnsecuredJWT({
  oid: AEGIS_ENTERPRISE_APP.appId,
  idtyp: 'app',
  app_displayname: AEGIS_ENTERPRISE_APP.displayName,
}).encode();

let dataDir: string;
let emulator: DevOpsEmulator;
const as = (token: string) =>
  new DevOpsClient({
    organizationUrl: emulator.url,
    getToken: () => Promise.resolve(token),
    retry: { maxRetries: 0 },
  });

async function caught(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (isServiceError(error)) return error;
    throw error;
  }
  throw new Error('expected a ServiceError');
}

const change = (file: string) => [
  { changeType: 'add' as const, path: `/Clients/ABC/${file}`, content: '{}\n' },
];

async function branchWithChange(token: string, name: string): Promise<string> {
  const main = await as(token).listRefs(REPO, 'heads/main');
  const push = await as(token).push(REPO, {
    branch: name,
    oldObjectId: main[0]?.objectId ?? '',
    commits: [{ comment: `add ${name}`, changes: change(`${name}.json`) }],
  });
  return push.commitId;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-devops-policy-'));
  emulator = await startDevOpsEmulator({
    dataDir,
    port: 0,
    verifyToken: () => Promise.resolve(true),
  });
});

afterAll(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the seeded configuration repository', () => {
  it('has the minimum reviewers policy on main (Policy Configurations API)', async () => {
    const policies = await as(SAM).listPolicyConfigurations(PROJECT);
    const repository = await as(SAM).getRepository(REPO);
    const onMain = policies.filter((p) =>
      p.scope.some((s) => s.repositoryId === repository?.id && s.refName === MAIN_REF),
    );
    expect(onMain).toEqual([
      expect.objectContaining({
        typeId: MINIMUM_REVIEWERS_POLICY_TYPE,
        isEnabled: true,
        isBlocking: true,
        settings: expect.objectContaining({
          minimumApproverCount: 1,
          creatorVoteCounts: false,
          resetOnSourcePush: true,
          blockLastPusherVote: true,
        }) as unknown,
      }),
    ]);
  });

  it('names the policy type', async () => {
    const response = await fetch(
      `${emulator.url}/${encodeURIComponent(PROJECT)}/_apis/policy/types?api-version=7.1`,
      {
        headers: { authorization: `Bearer ${SAM}` },
      },
    );
    const body = (await response.json()) as { value: { id: string; displayName: string }[] };
    expect(body.value).toContainEqual(
      expect.objectContaining({
        id: MINIMUM_REVIEWERS_POLICY_TYPE,
        displayName: 'Minimum number of reviewers',
      }),
    );
  });
});

describe('a technician with their own DevOps token', () => {
  it('cannot push to main (TF402455) and main does not move', async () => {
    const before = await as(SAM).listRefs(REPO, 'heads/main');
    const error = await caught(
      as(SAM).push(REPO, {
        branch: 'main',
        oldObjectId: before[0]?.objectId ?? '',
        commits: [{ comment: 'straight to main', changes: change('direct.json') }],
      }),
    );
    expect(error.statusCode).toBe(403);
    expect(error.code).toBe('GitRefUpdateRejectedByPolicyException');
    expect(error.message).toBe(
      'TF402455: Pushes to this branch are not permitted; you must use a pull request to update this branch.',
    );
    expect(await as(SAM).listRefs(REPO, 'heads/main')).toEqual(before);
  });

  it('cannot move main with a ref update either', async () => {
    const tip = await branchWithChange(SAM, 'sam-ref-move');
    const main = await as(SAM).listRefs(REPO, 'heads/main');
    const [result] = await as(SAM).updateRefs(REPO, [
      { name: MAIN_REF, oldObjectId: main[0]?.objectId ?? '', newObjectId: tip },
    ]);
    expect(result).toMatchObject({ success: false, updateStatus: 'rejectedByPolicy' });
    expect(await as(SAM).listRefs(REPO, 'heads/main')).toEqual(main);
  });

  it('cannot complete their own pull request with their own approval', async () => {
    await branchWithChange(SAM, 'sam-self-approve');
    const pr = await as(SAM).createPullRequest(REPO, {
      sourceRefName: 'refs/heads/sam-self-approve',
      targetRefName: MAIN_REF,
      title: 'Self approved',
    });
    await vote(SAM, pr.pullRequestId, 'c4a9e2f3-6b7d-48e1-a0f5-2d9c8b7e6a33', 10);
    const refused = await complete(SAM, pr.pullRequestId);
    expect(refused.status).toBe(403);
    expect(refused.body['message']).toMatch(
      /^This pull request requires an explicit override to bypass policies that aren't currently passing\./,
    );
    expect((await as(SAM).getPullRequest(REPO, pr.pullRequestId))?.status).toBe('active');

    // A second person's approval is what completes it.
    await vote(PRIYA, pr.pullRequestId, '8d2e4c71-91b3-4f0a-b6c2-3e5f7a9d1b22', 10);
    expect((await complete(SAM, pr.pullRequestId)).status).toBe(200);
    expect((await as(SAM).getPullRequest(REPO, pr.pullRequestId))?.status).toBe('completed');
  });

  it("cannot approve what they pushed last, and a new push resets others' votes", async () => {
    await branchWithChange(PRIYA, 'priya-work');
    const pr = await as(PRIYA).createPullRequest(REPO, {
      sourceRefName: 'refs/heads/priya-work',
      targetRefName: MAIN_REF,
      title: 'Priya work',
    });
    await vote(SAM, pr.pullRequestId, 'c4a9e2f3-6b7d-48e1-a0f5-2d9c8b7e6a33', 10);
    // Sam pushes onto the branch he approved: his vote is reset and, as last pusher, cannot count.
    const tip = await as(SAM).listRefs(REPO, 'heads/priya-work');
    await as(SAM).push(REPO, {
      branch: 'priya-work',
      oldObjectId: tip[0]?.objectId ?? '',
      commits: [{ comment: 'sneak in', changes: change('sneak.json') }],
    });
    expect((await as(SAM).getPullRequest(REPO, pr.pullRequestId))?.reviewers).toEqual([
      expect.objectContaining({ vote: 0 }),
    ]);
    await vote(SAM, pr.pullRequestId, 'c4a9e2f3-6b7d-48e1-a0f5-2d9c8b7e6a33', 10);
    expect((await complete(PRIYA, pr.pullRequestId)).status).toBe(403);
  });

  it('cannot remove the policy (TF401027 EditPolicies)', async () => {
    const [policy] = await as(SAM).listPolicyConfigurations(PROJECT);
    const response = await fetch(
      `${emulator.url}/${encodeURIComponent(PROJECT)}/_apis/policy/configurations/${policy?.id}?api-version=7.1`,
      { method: 'DELETE', headers: { authorization: `Bearer ${SAM}` } },
    );
    expect(response.status).toBe(403);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /^TF401027: You need the Git 'EditPolicies' permission/,
    );
    expect(await as(SAM).listPolicyConfigurations(PROJECT)).toHaveLength(1);
  });
});

describe('the Aegis service identity', () => {
  it('may push to main (bypass policies when pushing), with the technician as author', async () => {
    const main = await as(AEGIS_APP).listRefs(REPO, 'heads/main');
    const push = await as(AEGIS_APP).push(REPO, {
      branch: 'main',
      oldObjectId: main[0]?.objectId ?? '',
      commits: [
        {
          comment: 'Accept deviations\n\nOn behalf of: Sam Taylor <sam.taylor@aegis-msp.example>',
          author: { name: 'Sam Taylor', email: 'sam.taylor@aegis-msp.example' },
          changes: change('.accepted-deviations-test.json'),
        },
      ],
    });
    const [commit] = await as(AEGIS_APP).listCommits(REPO, { version: { branch: 'main' }, top: 1 });
    expect(commit?.commitId).toBe(push.commitId);
    expect(commit?.author.email).toBe('sam.taylor@aegis-msp.example');
  });
});

describe('Build - Get', () => {
  it('records who requested a run', async () => {
    const run = await as(SAM).runPipeline(PROJECT, 216, {
      templateParameters: { ClientCode: 'ABC' },
    });
    const build = await as(PRIYA).getBuild(PROJECT, run.id);
    expect(build).toMatchObject({
      id: run.id,
      definitionId: 216,
      templateParameters: { ClientCode: 'ABC' },
      requestedBy: { uniqueName: 'sam.taylor@aegis-msp.example' },
      requestedFor: { uniqueName: 'sam.taylor@aegis-msp.example' },
    });
    expect(await as(PRIYA).getBuild(PROJECT, 987654)).toBeUndefined();
  });
});

describe('granting Edit policies (the stand-in for the Security API)', () => {
  const grant = (identityId: string, allow: number) =>
    fetch(`${emulator.origin}/_emulator/git-permissions`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ repository: CONFIG_REPOSITORY_NAME, identityId, allow }),
    });

  it('lets the granted identity delete the policy, once; a delete of what is gone succeeds', async () => {
    const sam = 'c4a9e2f3-6b7d-48e1-a0f5-2d9c8b7e6a33';
    expect((await grant('nobody', 1.5)).status).toBe(400);
    expect((await grant(sam, 2048)).status).toBe(200);
    const [policy] = await as(SAM).listPolicyConfigurations(PROJECT);
    await as(SAM).deletePolicyConfiguration(PROJECT, policy!.id);
    expect(await as(SAM).listPolicyConfigurations(PROJECT)).toEqual([]);
    await as(SAM).deletePolicyConfiguration(PROJECT, policy!.id);
    expect((await grant(sam, 0)).status).toBe(200);
    const created = await as(AEGIS_APP).createPolicyConfiguration(PROJECT, {
      typeId: policy!.typeId,
      isEnabled: true,
      isBlocking: true,
      settings: policy!.settings,
      scope: policy!.scope,
    });
    await expect(as(SAM).deletePolicyConfiguration(PROJECT, created.id)).rejects.toMatchObject({
      statusCode: 403,
    });
  });
});

async function vote(token: string, pullRequestId: number, reviewerId: string, value: number) {
  const response = await fetch(
    `${emulator.url}/${encodeURIComponent(PROJECT)}/_apis/git/repositories/${CONFIG_REPOSITORY_NAME}/pullRequests/${pullRequestId}/reviewers/${reviewerId}?api-version=7.1`,
    {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ vote: value }),
    },
  );
  expect(response.status).toBe(200);
}

async function complete(token: string, pullRequestId: number) {
  const response = await fetch(
    `${emulator.url}/${encodeURIComponent(PROJECT)}/_apis/git/repositories/${CONFIG_REPOSITORY_NAME}/pullRequests/${pullRequestId}?api-version=7.1`,
    {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'completed' }),
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
