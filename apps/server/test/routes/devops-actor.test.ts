// Issue 18 §5: the DevOps objects Aegis writes carry the signed-in technician — commits are
// pushed with the technician's own token (on-behalf-of, ADR 031), so DevOps records them as the
// author, and pull requests are theirs, with the actor named in the description.
import { DevOpsClient, type GitCommitRef } from '@aegis/connectors/devops';
import type { AppTables } from '@aegis/connectors/tables';
import type {
  BackupRestore,
  ClientScheduleList,
  ClientYamlPreview,
  StreamEvent,
} from '@aegis/contracts';
import type { AppTableEntity } from '@aegis/domain';
import { CONFIG_REPOSITORY_NAME, SAMPLE_PROJECTS } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';
import type { TestApp } from '../helper';

const REPO = { project: SAMPLE_PROJECTS.tenantManagement, repository: CONFIG_REPOSITORY_NAME };
const OPERATOR = 'sam.taylor@aegis-msp.example';
const APPROVER = 'priya.shah@aegis-msp.example';
const AUTHORIZATION = 'AzureAD/AuthorizationPolicy/Authorization Policy.json';

const ROWS: AppTableEntity[] = [
  { PartitionKey: 'appinfo-pk1', RowKey: '0001', AppName: '7-Zip', Status: 'Enabled' },
  { PartitionKey: 'appinfo-pk1', RowKey: '0002', AppName: 'Slack', Status: 'Enabled' },
];
const tables = {
  listEntities: async (table: string) => (table === 'ABCWorkstationApps' ? ROWS : []),
} as Partial<AppTables> as AppTables;

describe('DevOps objects carry the signed-in technician (issue 18 §5)', () => {
  let env: AppWithDevOps;
  let t: TestApp;
  let git: DevOpsClient;

  beforeAll(async () => {
    env = await buildWithSeededDevOps({ ports: { tables } });
    t = env.t;
    git = new DevOpsClient({
      organizationUrl: env.devops.emulator.url,
      getToken: () => t.idp.issueToken('alex.morgan@aegis-msp.example'),
    });
  });
  afterAll(() => env?.close());

  const lastCommit = async (branch = 'main'): Promise<GitCommitRef> => {
    const [commit] = await git.listCommits(REPO, { version: { branch }, top: 1 });
    if (!commit) throw new Error(`no commit on ${branch}`);
    return commit;
  };

  it('YAML app lists and schedules: committed by the Operator who saved them', async () => {
    const preview = await t.injectAs(OPERATOR, {
      method: 'GET',
      url: '/api/client-yaml/ABC/apps-preview',
    });
    const updated = await t.injectAs(OPERATOR, {
      method: 'POST',
      url: '/api/client-yaml/ABC/apps',
      payload: { commitId: preview.json<ClientYamlPreview>().commitId },
    });
    expect(updated.statusCode).toBe(200);
    expect((await lastCommit()).author.email).toBe(OPERATOR);

    const listed = await t.injectAs(OPERATOR, { method: 'GET', url: '/api/schedules' });
    const result = listed.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as StreamEvent<ClientScheduleList>)
      .at(-1);
    if (result?.type !== 'result') throw new Error(listed.body);
    const free = result.result.rows.find((row) => row.schedules.length === 0)!;
    const saved = await t.injectAs(OPERATOR, {
      method: 'PUT',
      url: `/api/schedules/${free.clientCode}`,
      payload: { cronExpression: '30 23 * * 6', displayName: 'Weekly 11:30 PM build (Saturday)' },
    });
    expect(saved.statusCode).toBe(200);
    const commit = await lastCommit();
    expect(commit.author.email).toBe(OPERATOR);
    expect(commit.comment).toContain(free.clientCode);
  });

  it('accepted deviations and confirmed matches: committed by the Approver, who is named in the file', async () => {
    const accepted = await t.injectAs(APPROVER, {
      method: 'POST',
      url: '/api/compliance/FAB/accepted-deviations',
      payload: {
        path: AUTHORIZATION,
        policyName: 'Authorization Policy',
        category: 'AzureAD',
        properties: ['allowUserConsentForRiskyApps'],
        reason: 'Reviewed by the client CISO',
      },
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ entry: { acceptedBy: APPROVER } });
    expect((await lastCommit()).author.email).toBe(APPROVER);

    const matched = await t.injectAs(APPROVER, {
      method: 'POST',
      url: '/api/compliance/FAB/matching/matches',
      payload: {
        matches: [
          {
            baselineName: 'Actor Test',
            clientName: 'Actor Client',
            score: 80,
            scores: { conditions: 80, grantControls: 80, sessionControls: 80 },
            confirmedAt: new Date().toISOString(),
          },
        ],
      },
    });
    expect(matched.statusCode).toBe(200);
    expect((await lastCommit()).author.email).toBe(APPROVER);
  });

  it('a restore: the branch commit and the pull request are the Approver’s, named in the description', async () => {
    const list = await t.injectAs(APPROVER, { method: 'GET', url: '/api/backups/CON' });
    const oldest = list.json<{ backups: { tagName: string }[] }>().backups.at(-1)!;
    const restored = await t.injectAs(APPROVER, {
      method: 'POST',
      url: '/api/backups/CON/restore',
      payload: { tag: oldest.tagName },
    });
    expect(restored.statusCode).toBe(201);
    const { pullRequestId, branch } = restored.json<BackupRestore>();
    expect((await lastCommit(branch)).author.email).toBe(APPROVER);
    const pr = await git.getPullRequest(REPO, pullRequestId);
    expect(pr?.createdBy.uniqueName).toBe(APPROVER);
    expect(pr?.description).toContain(`Requested through Aegis by ${APPROVER}`);
  });
});
