// Sample capture history (spec 3 §3): capture branches waiting for review, with their metadata,
// and the pull requests of captures already merged (their branches deleted on completion), so the
// capture screens have data before any capture runs. A capture run adds branches the same way.
import { ZERO_OBJECT_ID } from '@aegis/connectors/devops';
import {
  captureChangeCounts,
  FIXED_PIPELINE_IDS,
  propertyChanges,
  type CapturedFileChange,
} from '@aegis/domain';

import { recordPush } from '../devops/branch-policies';
import type { GitRepo, FileChange } from '../devops/git';
import { BUILD_SERVICE_IDENTITY } from '../devops/routes/common';
import type { DevOpsState, IdentityRecord, RepositoryRecord } from '../devops/state';

const DAY = 86_400_000;
const HOUR = 3_600_000;

type Json = Record<string, unknown>;

const PRIYA: IdentityRecord = {
  id: '8d2e4c71-91b3-4f0a-b6c2-3e5f7a9d1b22',
  displayName: 'Priya Shah',
  uniqueName: 'priya.shah@aegis-msp.example',
};
const SAM: IdentityRecord = {
  id: 'c4a9e2f3-6b7d-48e1-a0f5-2d9c8b7e6a33',
  displayName: 'Sam Taylor',
  uniqueName: 'sam.taylor@aegis-msp.example',
};
const BOT = { name: 'Azure Pipelines', email: 'build@aegis.local' };

interface PlannedCapture {
  client: string;
  runId: number;
  hoursAgo: number;
  /** who ran the capture: the run's requester (and the metadata's triggeredBy) */
  triggeredBy: IdentityRecord;
  /**
   * metadata the pipeline recorded; `counted: false` is a capture whose pipeline recorded no
   * counts (shown as '?'), else they are counted as the capture task counts them
   */
  metadata: { counted: boolean; baselineVersion: string };
  edits: { path: string; apply(policy: Json): void }[];
  adds: { path: string; content: Json }[];
  deletes: string[];
}

const res = (client: string, path: string) => `Clients/${client}/M365Config/Resources/${path}`;

/** The captures waiting for review: ABC has real drift; FAB has one older than 60 days. */
export function plannedCaptures(): PlannedCapture[] {
  return [
    {
      client: 'ABC',
      runId: 1042,
      hoursAgo: 2,
      triggeredBy: SAM,
      metadata: { counted: true, baselineVersion: '1.0.0' },
      edits: [
        {
          path: res(
            'ABC',
            'ConditionalAccess/Policy/CA000-Global-IdentityProtection-AnyApp-AnyPlatform-MFA.json',
          ),
          apply: (p) => {
            p['state'] = 'enabledForReportingButNotEnforced';
            p['modifiedDateTime'] = new Date().toISOString();
          },
        },
        {
          path: res(
            'ABC',
            'ConditionalAccess/Policy/CA102-Admins-IdentityProtection-AllApps-AnyPlatform-SigninFrequency.json',
          ),
          apply: (p) => {
            const session = (p['sessionControls'] as Json | null) ?? {};
            p['sessionControls'] = {
              ...session,
              persistentBrowser: { mode: 'always', isEnabled: true },
            };
          },
        },
        {
          path: res('ABC', 'Exchange/OrganizationConfig/Organization Config.json'),
          apply: (p) => {
            p['MailTipsLargeAudienceThreshold'] = 50;
          },
        },
        {
          path: res('ABC', 'Teams/MeetingPolicy/Global.json'),
          apply: (p) => {
            // only volatile fields change: the default exclusions hide this file from review
            p['WhenChanged'] = new Date().toISOString();
          },
        },
      ],
      adds: [
        {
          path: res('ABC', 'ConditionalAccess/Policy/CA900-Vendor-Remote-Support-Exception.json'),
          content: {
            '@odata.type': '#microsoft.graph.conditionalAccessPolicy',
            id: '5f0d2c1e-7a43-4b9e-8c11-2e6f4d3a9b70',
            displayName: 'CA900-Vendor-Remote-Support-Exception',
            state: 'enabled',
            sessionControls: null,
            conditions: {
              clientAppTypes: ['all'],
              applications: { includeApplications: ['All'], excludeApplications: [] },
              users: { includeUsers: ['vendor.support@abc-corp.example'], excludeUsers: [] },
            },
            grantControls: { operator: 'OR', builtInControls: ['mfa'] },
          },
        },
      ],
      deletes: [res('ABC', 'Exchange/TransportRule/Block Client Auto-Forwarding.json')],
    },
    {
      client: 'ABC',
      runId: 1017,
      hoursAgo: 3 * 24 + 5,
      triggeredBy: PRIYA,
      metadata: { counted: false, baselineVersion: '1.0.0' },
      edits: [
        {
          path: res(
            'ABC',
            'Intune/DeviceCompliancePolicy/Baseline - Windows - System Security.json',
          ),
          apply: (p) => {
            p['passwordMinimumLength'] = 12;
          },
        },
      ],
      adds: [],
      deletes: [],
    },
    {
      client: 'FAB',
      runId: 611,
      hoursAgo: 75 * 24,
      triggeredBy: PRIYA,
      metadata: { counted: true, baselineVersion: '0.9.0' },
      edits: [
        {
          path: res('FAB', 'Exchange/OrganizationConfig/Organization Config.json'),
          apply: (p) => {
            p['FocusedInboxOn'] = false;
          },
        },
      ],
      adds: [],
      deletes: [],
    },
  ];
}

/** Merged captures: client, run id, days since the merge; the last per client matches the history's merge. */
const MERGED: [string, number, number][] = [
  ['ABC', 990, 30],
  ['ABC', 951, 44],
  ['ABC', 902, 58],
  ['ABC', 870, 72],
  ['ABC', 812, 86],
  ['CON', 984, 25],
  ['FAB', 977, 20],
  ['NWT', 969, 15],
  ['WWI', 962, 10],
];

const text = (json: unknown) => `${JSON.stringify(json, null, 2)}\n`;

/**
 * Writes the pending capture branches off main and the completed pull requests of merged
 * captures. `files` is main's content (repository path → text).
 */
export async function seedCaptureHistory(
  git: GitRepo,
  state: DevOpsState,
  repo: RepositoryRecord,
  files: ReadonlyMap<string, string>,
  now: Date,
): Promise<string[]> {
  const main = await git.revParse('refs/heads/main');
  if (!main) throw new Error('seed the configuration repository before its captures');
  const branches: string[] = [];
  for (const plan of plannedCaptures()) {
    const date = new Date(now.getTime() - plan.hoursAgo * HOUR);
    const changes: FileChange[] = [];
    const counted: CapturedFileChange[] = [];
    for (const edit of plan.edits) {
      const before = files.get(edit.path);
      if (before === undefined) throw new Error(`sample capture edits a missing file ${edit.path}`);
      const policy = JSON.parse(before) as Json;
      edit.apply(policy);
      changes.push({ changeType: 'edit', path: edit.path, content: Buffer.from(text(policy)) });
      counted.push({
        changeType: 'edit',
        changedProperties: propertyChanges(JSON.parse(before), policy).map((c) => c.property),
      });
    }
    for (const add of plan.adds) {
      changes.push({ changeType: 'add', path: add.path, content: Buffer.from(text(add.content)) });
      counted.push({ changeType: 'add' });
    }
    for (const path of plan.deletes) {
      if (!files.has(path)) throw new Error(`sample capture deletes a missing file ${path}`);
      changes.push({ changeType: 'delete', path });
      counted.push({ changeType: 'delete' });
    }
    const counts = captureChangeCounts(counted);
    const metadata = {
      ...(plan.metadata.counted
        ? { changeCount: counts.changes, criticalCount: counts.critical }
        : {}),
      baselineVersion: plan.metadata.baselineVersion,
      capturedAt: date.toISOString(),
      triggeredBy: plan.triggeredBy.uniqueName,
      runId: plan.runId,
    };
    changes.push({
      changeType: files.has(`Clients/${plan.client}/.capture-metadata.json`) ? 'edit' : 'add',
      path: `Clients/${plan.client}/.capture-metadata.json`,
      content: Buffer.from(text(metadata)),
    });
    const who = { ...BOT, date };
    const { commits } = await git.importCommits(main, [
      {
        message: `Configuration capture of ${plan.client} (run ${plan.runId})\n`,
        author: who,
        committer: who,
        changes,
      },
    ]);
    const name = `client-${plan.client}-capture-${plan.runId}`;
    await git.updateRef(`refs/heads/${name}`, commits[0] ?? '', ZERO_OBJECT_ID);
    branches.push(name);
    // The capture run that made the branch: Aegis takes the capturer from its requester (ADR 051),
    // and the pipeline's job pushed the branch.
    const started = new Date(date.getTime() - 10 * 60_000);
    state.data.runs.push({
      id: plan.runId,
      pipelineId: FIXED_PIPELINE_IDS.capture,
      name: `${started.toISOString().slice(0, 10).replace(/-/g, '')}.1`,
      state: 'completed',
      result: 'succeeded',
      createdDate: started.toISOString(),
      finishedDate: date.toISOString(),
      refName: 'refs/heads/main',
      templateParameters: {
        ClientCode: plan.client,
        BaselineVersion: plan.metadata.baselineVersion,
      },
      variables: {},
      stagesToSkip: [],
      requestedBy: plan.triggeredBy,
      log: [`Captured ${plan.client} into ${name}`],
    });
    recordPush(state, repo.id, `refs/heads/${name}`, BUILD_SERVICE_IDENTITY);
  }

  // the runs that made these branches took their ids: new runs are numbered after them, as in
  // the real service, so a new capture never finds its branch name taken
  const lastRunId = Math.max(...plannedCaptures().map((p) => p.runId), ...MERGED.map((m) => m[1]));
  state.data.nextRunId = Math.max(state.data.nextRunId, lastRunId + 1);
  for (const [client, runId, daysAgo] of MERGED) {
    const closed = new Date(now.getTime() - daysAgo * DAY);
    const created = new Date(closed.getTime() - 6 * HOUR);
    const approver = runId % 2 === 0 ? PRIYA : SAM;
    const closer = approver === PRIYA ? SAM : PRIYA;
    const branch = `client-${client}-capture-${runId}`;
    state.data.pullRequests.push({
      pullRequestId: state.data.nextPullRequestId++,
      repositoryId: repo.id,
      status: 'completed',
      title: `Configuration capture ${branch} for client ${client}`,
      description: `Approved capture review of ${branch} for client ${client}.\nCaptured at: ${new Date(created.getTime() - 20 * HOUR).toISOString()}\n\nApproved by: ${approver.uniqueName}\nApproved at: ${created.toISOString()}`,
      sourceRefName: `refs/heads/${branch}`,
      targetRefName: 'refs/heads/main',
      createdBy: approver,
      creationDate: created.toISOString(),
      closedDate: closed.toISOString(),
      closedBy: closer,
      completionOptions: { deleteSourceBranch: true },
      isDraft: false,
      labels: ['capture-review'],
      reviewers: [{ ...closer, isRequired: false, vote: 10 }],
      lastMergeSourceCommit: main,
      lastMergeTargetCommit: main,
      lastMergeCommit: main,
    });
  }
  return branches;
}
