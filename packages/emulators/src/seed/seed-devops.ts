// Builds the emulator's sample organization on disk: projects, repositories (real git history made
// with one fast-import per repository), pipelines with the specs' fixed ids, and each client's
// backup tag history.
import { readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';

import { MINIMUM_REVIEWERS_POLICY_TYPE, ZERO_OBJECT_ID } from '@aegis/connectors/devops';
import {
  appDeployPipelineOf,
  backupTagMessage,
  backupTagName,
  clientYamlPath,
  FIXED_PIPELINE_IDS,
  MAIN_REF,
  PIPELINE_CATALOGUE,
  tenantPipelineOf,
  type CataloguedPipelineKey,
} from '@aegis/domain';

import { GIT_PERMISSION } from '../devops/branch-policies';
import { GitRepo, type FileChange, type NewCommit, type NewTag } from '../devops/git';
import { BUILD_SERVICE_IDENTITY } from '../devops/routes/common';
import {
  DevOpsState,
  emptyState,
  type PipelineRecord,
  type ProjectRecord,
  type RepositoryRecord,
} from '../devops/state';
import { AEGIS_ENTERPRISE_APP } from '../tenants/world';

import { seedCaptureHistory } from './capture-branches';
import {
  APP_DEPLOY_ONLY_CLIENTS,
  SAMPLE_CLIENTS,
  buildSampleRepo,
  sampleConfigHistory,
} from './sample-config';
import { deterministicGuid } from './tenant-context';

export interface SeedDevOpsOptions {
  /** the reference "now" for commit and backup dates (default: the current time) */
  now?: Date;
  organization?: string;
  /** wipe the data dir first (default true) */
  reset?: boolean;
}

export const SAMPLE_PROJECTS = {
  tenantManagement: 'Aegis Tenant Management',
  appDeployments: 'Client App Deployments',
  internalTools: 'Internal Tools',
  securityOperations: 'Security Operations',
} as const;

export const CONFIG_REPOSITORY_NAME = 'M365Config';

/** Pipeline ids fixed by the specs: the domain's catalogue (re-exported for the emulator's users). */
export { FIXED_PIPELINE_IDS };

/** Ids the sample organisation gives the catalogue's pipelines that are found by folder and name. */
const NAMED_PIPELINE_IDS: Record<
  'deployBaseline' | 'removeBaseline' | 'driftCheck' | 'fleetRebuild' | 'customerReports',
  number
> = {
  deployBaseline: 230,
  removeBaseline: 231,
  driftCheck: 232,
  fleetRebuild: 233,
  customerReports: 234,
};

/**
 * Pipelines whose YAML is Aegis's own (pipelines/ of this repository), so the emulator's scheduler
 * reads the schedule a real organisation runs.
 */
const AEGIS_PIPELINE_YAML: Partial<Record<CataloguedPipelineKey, string>> = {
  fleetRebuild: readFileSync(
    new URL('../../../../pipelines/fleet-rebuild.yml', import.meta.url),
    'utf8',
  ),
  customerReports: readFileSync(
    new URL('../../../../pipelines/customer-reports.yml', import.meta.url),
    'utf8',
  ),
};

export interface SeedDevOpsResult {
  organization: string;
  projects: ProjectRecord[];
  repositories: RepositoryRecord[];
  pipelines: PipelineRecord[];
  configRepository: RepositoryRecord;
  backupTags: string[];
}

const DAY = 86_400_000;
const PIPELINE_BOT = { name: 'Azure Pipelines', email: 'build@aegis.local' };

function id(seed: string): string {
  return deterministicGuid(`devops:${seed}`);
}

function diffChanges(before: Map<string, string>, after: Map<string, string>): FileChange[] {
  const changes: FileChange[] = [];
  for (const [p, text] of after) {
    const old = before.get(p);
    if (old === undefined) changes.push({ changeType: 'add', path: p, content: Buffer.from(text) });
    else if (old !== text)
      changes.push({ changeType: 'edit', path: p, content: Buffer.from(text) });
  }
  for (const p of before.keys()) if (!after.has(p)) changes.push({ changeType: 'delete', path: p });
  return changes;
}

export interface BackupPlan {
  client: string;
  date: Date;
  scheduled: boolean;
  /** a tag that does not follow the date rule and must be discarded by readers */
  oddName?: string;
}

/** Scheduled daily backups at 01:00 UTC, with gaps that give each client a different health. */
export function backupPlan(now: Date): BackupPlan[] {
  const plan: BackupPlan[] = [];
  const at = (daysAgo: number, hour: number, minute = 0, second = 0) => {
    const d = new Date(now.getTime() - daysAgo * DAY);
    d.setUTCHours(hour, minute, second, 0);
    return d;
  };
  // days without a scheduled backup at the end: ABC none (Healthy), CON 1 (Warning), FAB 6
  // (Critical), NWT none; WWI only has a tag that breaks the rule (No Backups).
  const stoppedDaysAgo: Record<string, number | undefined> = { ABC: 0, CON: 1, FAB: 6, NWT: 0 };
  for (const client of SAMPLE_CLIENTS) {
    const stopped = stoppedDaysAgo[client.code];
    if (stopped === undefined) continue;
    const first = Math.min(client.onboardedDaysAgo - 1, 120);
    const second = (client.code.charCodeAt(0) % 50) + 3;
    // days count from the last 01:00 run that has happened: before 01:00 UTC that is yesterday's,
    // so each client's health is the same at any time of day
    const notYetToday = at(0, 1, 0, second).getTime() > now.getTime() ? 1 : 0;
    for (let daysAgo = first; daysAgo >= stopped; daysAgo -= 1) {
      // weekly before the last 60 days, daily after
      if (daysAgo > 60 && daysAgo % 7 !== 0) continue;
      const date = at(daysAgo + notYetToday, 1, 0, second);
      plan.push({ client: client.code, date, scheduled: true });
    }
  }
  const manual: [string, number, number, number][] = [
    ['ABC', 34, 14, 22],
    ['ABC', 3, 16, 5],
    ['CON', 12, 11, 47],
    ['FAB', 21, 9, 13],
    ['NWT', 58, 15, 30],
    ['NWT', 8, 10, 2],
  ];
  for (const [client, daysAgo, hour, minute] of manual) {
    plan.push({ client, date: at(daysAgo, hour, minute, 41), scheduled: false });
  }
  const odd: [string, number, string][] = [
    ['ABC', 80, 'backup/ABC/20250301'],
    ['CON', 50, 'backup/CON/pre-migration'],
    ['FAB', 40, 'backup/FAB/2025-03-01_1015'],
    ['WWI', 20, 'backup/WWI/pre-onboarding'],
  ];
  for (const [client, daysAgo, oddName] of odd) {
    plan.push({ client, date: at(daysAgo, 12), scheduled: false, oddName });
  }
  return plan.sort((a, b) => a.date.getTime() - b.date.getTime());
}

async function seedConfigRepository(git: GitRepo, now: Date): Promise<{ backupTags: string[] }> {
  const history = sampleConfigHistory();
  let previous = new Map<string, string>();
  const commitDates: Date[] = [];
  const commits: NewCommit[] = history.map((step, index) => {
    const files = buildSampleRepo(step.stage);
    const changes = diffChanges(previous, files);
    previous = files;
    const date = new Date(now.getTime() - step.daysAgo * DAY);
    date.setUTCHours(9, 30 + (index % 20), 0, 0);
    if (date.getTime() > now.getTime())
      date.setTime(now.getTime() - (history.length - index) * 60_000);
    commitDates.push(date);
    const who = { ...step.author, date };
    return { message: `${step.message}\n`, author: who, committer: who, changes };
  });
  const tags: NewTag[] = backupPlan(now).flatMap((backup) => {
    let target = -1;
    commitDates.forEach((d, i) => {
      if (d.getTime() <= backup.date.getTime()) target = i;
    });
    if (target < 0) return [];
    return [
      {
        name: backup.oddName ?? backupTagName(backup.client, backup.date, backup.scheduled),
        target,
        message: backup.oddName
          ? `Ad-hoc snapshot of ${backup.client} before a change\n`
          : backupTagMessage(backup.client, backup.date, backup.scheduled),
        tagger: { ...PIPELINE_BOT, date: backup.date },
      },
    ];
  });
  const result = await git.importCommits(undefined, commits, tags);
  const head = result.commits[result.commits.length - 1];
  if (!head) throw new Error('the sample history produced no commit');
  await git.updateRef(MAIN_REF, head, ZERO_OBJECT_ID);
  return { backupTags: tags.map((t) => t.name) };
}

async function seedSimpleRepository(
  git: GitRepo,
  files: Record<string, string>,
  message: string,
  date: Date,
): Promise<void> {
  const who = { name: 'Tom Becker', email: 'tom.becker@aegis-msp.example', date };
  const { commits } = await git.importCommits(undefined, [
    {
      message: `${message}\n`,
      author: who,
      committer: who,
      changes: Object.entries(files).map(([p, text]) => ({
        changeType: 'add' as const,
        path: p,
        content: Buffer.from(text),
      })),
    },
  ]);
  await git.updateRef(MAIN_REF, commits[0] ?? '', ZERO_OBJECT_ID);
}

function pipelineYaml(name: string, parameters: readonly string[]): string {
  return [
    `# ${name}`,
    'trigger: none',
    ...(parameters.length
      ? [
          'parameters:',
          ...parameters.flatMap((p) => [`- name: ${p}`, '  type: string', "  default: ''"]),
        ]
      : []),
    'pool:',
    '  vmImage: windows-latest',
    'steps:',
    '- checkout: self',
    `- pwsh: Write-Host "Running ${name}"`,
    '',
  ].join('\n');
}

/**
 * The configuration repository's main as Aegis requires it (ADR 051): one approval from someone
 * other than the pull request's creator and the last pusher, votes reset on push, so no direct
 * pushes. Aegis's service principal may bypass the policy when pushing (its own small writes) and
 * edit policies (it sets them up); the build service may push (the onboarding task writes a
 * client's YAML). Technicians are contributors without either.
 */
function seedBranchProtection(
  state: DevOpsState,
  project: ProjectRecord,
  configRepo: RepositoryRecord,
  now: Date,
): void {
  state.data.policyConfigurations.push({
    id: state.data.nextPolicyConfigurationId++,
    revision: 1,
    projectId: project.id,
    typeId: MINIMUM_REVIEWERS_POLICY_TYPE,
    isEnabled: true,
    isBlocking: true,
    isDeleted: false,
    settings: {
      minimumApproverCount: 1,
      creatorVoteCounts: false,
      allowDownvotes: false,
      resetOnSourcePush: true,
      blockLastPusherVote: true,
      scope: [{ repositoryId: configRepo.id, refName: MAIN_REF, matchKind: 'exact' }],
    },
    createdBy: BUILD_SERVICE_IDENTITY,
    createdDate: new Date(now.getTime() - 90 * DAY).toISOString(),
  });
  state.data.gitPermissions.push(
    {
      repositoryId: configRepo.id,
      identityId: AEGIS_ENTERPRISE_APP.appId,
      allow: GIT_PERMISSION.PolicyExempt | GIT_PERMISSION.EditPolicies,
    },
    {
      repositoryId: configRepo.id,
      identityId: BUILD_SERVICE_IDENTITY.id,
      allow: GIT_PERMISSION.PolicyExempt,
    },
  );
}

export async function seedDevOps(
  dataDir: string,
  options: SeedDevOpsOptions = {},
): Promise<SeedDevOpsResult> {
  const now = options.now ?? new Date();
  if (options.reset ?? true) await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const state = DevOpsState.load(dataDir, options.organization);
  Object.assign(state.data, emptyState(options.organization ?? state.data.organization));

  const project = (name: string, description: string, revision: number): ProjectRecord => ({
    id: id(`project:${name}`),
    name,
    description,
    revision,
    lastUpdateTime: new Date(now.getTime() - (revision % 40) * DAY).toISOString(),
  });
  const tenantProject = project(
    SAMPLE_PROJECTS.tenantManagement,
    'Baseline, onboarding, capture and backup pipelines for client tenants',
    412,
  );
  const appProject = project(
    SAMPLE_PROJECTS.appDeployments,
    'Per-client workstation app deployment pipelines',
    268,
  );
  const toolsProject = project(
    SAMPLE_PROJECTS.internalTools,
    'Reporting and housekeeping scripts',
    97,
  );
  const secOpsProject = project(
    SAMPLE_PROJECTS.securityOperations,
    'Sentinel content and incident response runbooks',
    151,
  );
  state.data.projects.push(tenantProject, appProject, toolsProject, secOpsProject);

  const repo = (name: string, p: ProjectRecord): RepositoryRecord => ({
    id: id(`repo:${p.name}:${name}`),
    name,
    projectId: p.id,
  });
  const configRepo = repo(CONFIG_REPOSITORY_NAME, tenantProject);
  const pipelinesRepo = repo('Aegis-Pipelines', tenantProject);
  const appRepo = repo('App-Deployments', appProject);
  const toolsRepo = repo('internal-scripts', toolsProject);
  const secOpsRepo = repo('sentinel-content', secOpsProject);
  state.data.repositories.push(configRepo, pipelinesRepo, appRepo, toolsRepo, secOpsRepo);
  seedBranchProtection(state, tenantProject, configRepo, now);

  const pipelines: PipelineRecord[] = [];
  const pipeline = (
    pipelineId: number,
    name: string,
    folder: string,
    p: ProjectRecord,
    r: RepositoryRecord,
    yamlPath: string,
  ) =>
    pipelines.push({
      id: pipelineId,
      name,
      folder,
      projectId: p.id,
      revision: (pipelineId % 7) + 1,
      repositoryId: r.id,
      yamlPath,
    });
  // The catalogue's pipelines: the fixed ids of the specs, the Aegis folder pipelines by name.
  const catalogueYaml: Record<CataloguedPipelineKey, string> = {
    appDeployOnboardingLegacy: '/onboarding/app-deploy-legacy.yml',
    tenantOnboardingLegacy: '/onboarding/tenant-legacy.yml',
    tenantOnboarding: '/onboarding/tenant.yml',
    appDeployOnboarding: '/onboarding/app-deploy.yml',
    backup: '/pipelines/backup.yml',
    capture: '/pipelines/capture.yml',
    deployBaseline: '/baseline/deploy.yml',
    removeBaseline: '/baseline/remove.yml',
    driftCheck: '/pipelines/drift-check.yml',
    fleetRebuild: '/pipelines/fleet-rebuild.yml',
    customerReports: '/pipelines/customer-reports.yml',
  };
  const parametersById = new Map<number, readonly string[]>();
  const aegisYamlById = new Map<number, string>();
  for (const [key, entry] of Object.entries(PIPELINE_CATALOGUE) as [
    CataloguedPipelineKey,
    (typeof PIPELINE_CATALOGUE)[CataloguedPipelineKey],
  ][]) {
    const pipelineId =
      'id' in entry ? entry.id : NAMED_PIPELINE_IDS[key as keyof typeof NAMED_PIPELINE_IDS];
    // backup, capture and the drift check run on the configuration repository itself
    const onConfigRepo = key === 'backup' || key === 'capture' || key === 'driftCheck';
    pipeline(
      pipelineId,
      entry.name,
      `\\${entry.folder}`,
      tenantProject,
      onConfigRepo ? configRepo : pipelinesRepo,
      catalogueYaml[key],
    );
    parametersById.set(pipelineId, entry.templateParameters);
    const aegisYaml = AEGIS_PIPELINE_YAML[key];
    if (aegisYaml) aegisYamlById.set(pipelineId, aegisYaml);
  }
  SAMPLE_CLIENTS.filter((c) => c.code !== 'WWI').forEach((c, index) => {
    const tenantPipeline = tenantPipelineOf(c.code);
    pipeline(
      240 + index,
      tenantPipeline.name,
      `\\${tenantPipeline.folder}`,
      tenantProject,
      pipelinesRepo,
      '/tenants/tenant-configuration.yml',
    );
  });
  SAMPLE_CLIENTS.forEach((c, index) => {
    const appPipeline = appDeployPipelineOf(c.code);
    pipeline(
      101 + index,
      appPipeline.name,
      `\\${appPipeline.folder}`,
      appProject,
      configRepo,
      clientYamlPath(c.code),
    );
  });
  APP_DEPLOY_ONLY_CLIENTS.forEach((c, index) => {
    const appPipeline = appDeployPipelineOf(c.code);
    pipeline(
      101 + SAMPLE_CLIENTS.length + index,
      appPipeline.name,
      `\\${appPipeline.folder}`,
      appProject,
      configRepo,
      clientYamlPath(c.code),
    );
  });
  pipeline(
    110,
    'CON - Printer Drivers',
    '\\CON',
    appProject,
    appRepo,
    '/pipelines/printer-drivers.yml',
  );
  pipeline(
    111,
    'FAB - Line of Business Apps',
    '\\FAB',
    appProject,
    appRepo,
    '/pipelines/lob-apps.yml',
  );
  pipeline(
    112,
    'Package Catalogue Refresh',
    '\\',
    appProject,
    appRepo,
    '/pipelines/catalogue-refresh.yml',
  );
  pipeline(
    301,
    'Monthly Licence Report',
    '\\Reporting',
    toolsProject,
    toolsRepo,
    '/reporting/licences.yml',
  );
  pipeline(
    302,
    'Stale Guest Cleanup',
    '\\Housekeeping',
    toolsProject,
    toolsRepo,
    '/housekeeping/guests.yml',
  );
  pipeline(
    303,
    'Secure Score Snapshot',
    '\\Reporting',
    toolsProject,
    toolsRepo,
    '/reporting/secure-score.yml',
  );
  pipeline(
    401,
    'Deploy Analytics Rules',
    '\\',
    secOpsProject,
    secOpsRepo,
    '/pipelines/analytics-rules.yml',
  );
  pipeline(
    402,
    'Export Incidents',
    '\\',
    secOpsProject,
    secOpsRepo,
    '/pipelines/export-incidents.yml',
  );
  state.data.pipelines.push(...pipelines);

  const configGit = await GitRepo.init(state.repoDir(configRepo.id));
  const { backupTags } = await seedConfigRepository(configGit, now);
  const finalStage = sampleConfigHistory().at(-1)?.stage;
  if (finalStage) {
    await seedCaptureHistory(configGit, state, configRepo, buildSampleRepo(finalStage), now);
  }

  const lastWeek = new Date(now.getTime() - 7 * DAY);
  const yamlFor = (r: RepositoryRecord) =>
    Object.fromEntries(
      pipelines
        .filter((p) => p.repositoryId === r.id && p.yamlPath)
        .map((p) => [
          p.yamlPath!.slice(1),
          aegisYamlById.get(p.id) ??
            pipelineYaml(p.name, parametersById.get(p.id) ?? ['ClientCode']),
        ]),
    );
  for (const r of [pipelinesRepo, appRepo, toolsRepo, secOpsRepo]) {
    const git = await GitRepo.init(state.repoDir(r.id));
    await seedSimpleRepository(
      git,
      { 'README.md': `# ${r.name}\n`, ...yamlFor(r) },
      `Initial import of ${r.name}`,
      lastWeek,
    );
  }
  state.save();
  return {
    organization: state.data.organization,
    projects: state.data.projects,
    repositories: state.data.repositories,
    pipelines: state.data.pipelines,
    configRepository: configRepo,
    backupTags,
  };
}
