// Onboarding (pipelines 178 and legacy 75) and app-deploy onboarding (55 and 191): what a new client
// needs in DevOps (ADR 055). Tenant onboarding makes the client a deploy target (its first capture
// on main and its pipeline under 'Tenants') and gives it app deployment too; app-deploy onboarding
// makes only the app table, YAML and app pipeline. Every step checks first, so a re-run for an
// onboarded client changes nothing and says so.
import type { Pipeline } from '@aegis/connectors/devops';
import {
  appDeployPipelineOf,
  newClientYaml,
  isClientPipeline,
  tenantPipelineOf,
  type ClientPipeline,
} from '@aegis/domain';

import type { TaskParameters } from '../parameters';

import type { TaskContext } from './context';
import { clientRoot, clientYamlPath } from './layout';
import { manifestFileChange, notCapturedLines, snapshotTenant } from './snapshot';

/** The YAML a tenant's pipeline runs: the baseline deploy (`pipelines/deploy.yml`) for that client. */
const TENANT_PIPELINE_YAML_PATH = 'pipelines/deploy.yml';

export interface OnboardOutcome {
  created: string[];
}

/** A pipeline as listed, with the project it lives in. */
type ListedPipeline = Pipeline & { projectName: string };

/**
 * The organisation's pipelines, every project's: a client's app pipeline may live in another
 * project than the onboarding run (the sample organisation keeps them in 'Client App
 * Deployments'), and finding it there is what keeps a re-run from making a second one.
 */
async function organisationPipelines(context: TaskContext): Promise<ListedPipeline[]> {
  const own = context.pipelines.project;
  const projects = await context.devops.listProjects();
  const lists = await Promise.all(
    projects.map(async (project) => {
      const isOwn = project.id === own || project.name.toLowerCase() === own.toLowerCase();
      try {
        const pipelines = await context.devops.listPipelines(project.id);
        return pipelines.map((p) => ({ ...p, projectName: project.name }));
      } catch (error) {
        // A job token limited to its own project (the organisation's setting) sees no other.
        if (isOwn) throw error;
        context.log.warning(
          `Could not list the pipelines of ${project.name}: ${(error as Error).message}`,
        );
        return [];
      }
    }),
  );
  return lists.flat();
}

async function ensurePipeline(
  context: TaskContext,
  existing: readonly ListedPipeline[],
  wanted: ClientPipeline,
  yamlPath: string,
  created: string[],
): Promise<void> {
  const { name } = wanted;
  const folder = `\\${wanted.folder}`;
  const found = existing.find((p) => isClientPipeline(p, wanted));
  if (found) {
    context.log.info(`Pipeline '${name}' already exists in ${folder} (${found.projectName})`);
    return;
  }
  const repository = await context.repository.describe();
  if (!repository) throw new Error(`Repository ${context.repository.repo.repository} not found`);
  const pipeline = await context.devops.createPipeline(context.pipelines.project, {
    name,
    folder,
    yamlPath: `/${yamlPath}`,
    repositoryId: repository.id,
  });
  created.push(`pipeline '${name}' in ${folder}`);
  context.log.info(`Created pipeline '${name}' (${pipeline.id}) in ${folder}`);
}

async function ensureClientYaml(
  context: TaskContext,
  client: string,
  created: string[],
): Promise<void> {
  const path = clientYamlPath(client);
  const main = await context.repository.branchTip();
  if (await context.repository.fileExists(path, { commit: main })) {
    context.log.info(`${path} already exists`);
    return;
  }
  await context.repository.commit('main', main, `Add the ${client} app-deploy pipeline YAML`, [
    { changeType: 'add', path, content: newClientYaml(client) },
  ]);
  created.push(path);
  context.log.info(`Added ${path}`);
}

function finish(context: TaskContext, client: string, created: string[]): OnboardOutcome {
  context.log.section('Summary');
  if (created.length === 0) {
    context.log.info(`${client} is already onboarded: nothing changed.`);
  } else {
    context.log.info(`Onboarded ${client}: created ${created.join('; ')}`);
  }
  return { created };
}

export async function runOnboard(
  context: TaskContext,
  parameters: TaskParameters<'onboard'>,
): Promise<OnboardOutcome> {
  const { log, repository } = context;
  const client = parameters.ClientCode;
  log.section(`Onboarding ${client} (${parameters.Domain})`);
  const created: string[] = [];
  const main = await repository.branchTip();
  const folder = await repository.readFolderTexts(clientRoot(client), { commit: main });
  if (folder.size > 0) {
    log.info(`${clientRoot(client)} already exists on main`);
  } else {
    const tenant = await context.tenant(parameters.TenantId || undefined);
    const snapshot = await snapshotTenant(tenant, repository, client, main, context.now());
    for (const line of notCapturedLines(snapshot.manifest)) log.warning(line);
    await repository.commit(
      'main',
      main,
      `Onboard ${client}: first capture of ${parameters.Domain} (run ${context.runId})`,
      [...snapshot.changes, await manifestFileChange(repository, client, main, snapshot.manifest)],
    );
    created.push(`${clientRoot(client)} with a first capture of ${snapshot.policyCount} policies`);
    log.info(`Committed the first capture of ${client} to main (${snapshot.policyCount} policies)`);
  }
  await ensureClientYaml(context, client, created);
  const pipelines = await organisationPipelines(context);
  await ensurePipeline(
    context,
    pipelines,
    appDeployPipelineOf(client),
    clientYamlPath(client),
    created,
  );
  await ensurePipeline(
    context,
    pipelines,
    tenantPipelineOf(client),
    TENANT_PIPELINE_YAML_PATH,
    created,
  );
  return finish(context, client, created);
}

export async function runAppDeployOnboard(
  context: TaskContext,
  parameters: TaskParameters<'appdeploy-onboard'>,
): Promise<OnboardOutcome> {
  const { log } = context;
  const client = parameters.ClientCode;
  log.section(`App-deploy onboarding of ${client} (${parameters.Domain})`);
  const created: string[] = [];
  const table = `${client}WorkstationApps`;
  if (!context.tables) throw new Error('No table storage is configured (AEGIS_TABLES_URL)');
  const tables = await context.tables.listTables();
  if (tables.includes(table)) {
    log.info(`Table ${table} already exists`);
  } else {
    await context.tables.createTable(table);
    created.push(`table ${table}`);
    log.info(`Created table ${table}`);
  }
  await ensureClientYaml(context, client, created);
  await ensurePipeline(
    context,
    await organisationPipelines(context),
    appDeployPipelineOf(client),
    clientYamlPath(client),
    created,
  );
  return finish(context, client, created);
}
