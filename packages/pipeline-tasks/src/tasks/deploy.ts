// Deploy ('Deploy Baseline Tenant Configuration'): applies components of the company baseline on
// main to the client tenant. A backup comes first (the rollback point, named in the log); then per
// component, in dependency order, each baseline object is created when missing and updated when it
// differs (matched by id, then display name), with the baseline's group and named-location ids
// mapped to the tenant's. Intune writes carry a Multi Admin Approval justification naming the run.
import { randomBytes } from 'node:crypto';

import { readClientBaseline } from '@aegis/connectors/repository';
import {
  BASELINE_COMPONENTS,
  DIRECTORY_ACCOUNTS,
  DIRECTORY_USERS_WORKLOAD,
  TENANT_WORKLOADS,
  hasPublicApi,
  missingParametersMessage,
  pendingApprovalSummary,
  policyNameOf,
  rollbackPointLine,
  textOf,
  workloadFor,
  workloadKey,
  type BaselineComponent,
  type TenantWorkload,
} from '@aegis/domain';

import { TaskError } from '../log';
import type { TaskParameters } from '../parameters';
import {
  objectIdOf,
  objectsOfRead,
  type TenantGateway,
  type TenantObject,
  type WriteOutcome,
} from '../tenant/gateway';

import { runBackup } from './backup';
import type { TaskContext } from './context';
import { RESOURCES_ROOT } from './layout';
import { REFERENCEABLE, mapReferences, referenceKey, type ReferenceMaps } from './references';

/** Properties the services set themselves; never sent in a write. */
const READ_ONLY = new Set(
  [
    'id',
    '@odata.context',
    'createdDateTime',
    'lastModifiedDateTime',
    'modifiedDateTime',
    'deletedDateTime',
    'renewedDateTime',
    'version',
    'Identity',
    'Id',
    'Guid',
    'ExchangeObjectId',
    'DistinguishedName',
    'ObjectCategory',
    'OrganizationId',
    'OrganizationalUnitRoot',
    'OriginatingServer',
    'ObjectState',
    'IsValid',
    'ExchangeVersion',
    'WhenChanged',
    'WhenCreated',
    'WhenChangedUTC',
    'WhenCreatedUTC',
    'systemData',
  ].map((k) => k.toLowerCase()),
);

/**
 * Properties a create needs that are fixed afterwards (a directory setting's `templateId`): sent
 * on create, never in an update.
 */
const CREATE_ONLY = new Set(['templateid']);

function updateBody(body: TenantObject): TenantObject {
  return Object.fromEntries(
    Object.entries(body).filter(([key]) => !CREATE_ONLY.has(key.toLowerCase())),
  );
}

/** What a write sends: neither what every service sets itself nor what the workload's service calls read-only. */
export function writableBody(object: TenantObject, workload: TenantWorkload): TenantObject {
  const readOnly = new Set(
    (workload.transport === 'graph' ? (workload.readOnly ?? []) : []).map((k) => k.toLowerCase()),
  );
  return Object.fromEntries(
    Object.entries(object).filter(
      ([key]) => !READ_ONLY.has(key.toLowerCase()) && !readOnly.has(key.toLowerCase()),
    ),
  );
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** True when every property the baseline sets already has that value in the tenant. */
export function alreadyApplied(existing: TenantObject, desired: TenantObject): boolean {
  return Object.entries(desired).every(([key, value]) => deepEqual(existing[key], value));
}

export interface BaselineFile {
  path: string;
  workload: TenantWorkload;
  object: TenantObject;
}

/** Baseline files of main under the given paths (folders or files), with their workloads. */
export function baselineFilesUnder(
  files: ReadonlyMap<string, string>,
  paths: readonly string[],
): BaselineFile[] {
  const out: BaselineFile[] = [];
  for (const [path, text] of files) {
    if (!paths.some((p) => path === p || path.startsWith(`${p}/`))) continue;
    const parts = path.slice(RESOURCES_ROOT.length + 1).split('/');
    if (parts.length !== 3 || !path.endsWith('.json')) continue;
    const workload = workloadFor(parts[0] ?? '', parts[1] ?? '');
    if (!workload) continue;
    let object: unknown;
    try {
      object = JSON.parse(text);
    } catch {
      throw new TaskError(`${path} on main is not valid JSON`);
    }
    if (object && typeof object === 'object' && !Array.isArray(object)) {
      out.push({ path, workload, object: object as TenantObject });
    }
  }
  const order = (w: TenantWorkload) => TENANT_WORKLOADS.indexOf(w);
  return out.sort((a, b) => order(a.workload) - order(b.workload) || a.path.localeCompare(b.path));
}

export function findExisting(
  workload: TenantWorkload,
  live: readonly TenantObject[],
  baseline: TenantObject,
  fileName: string,
): TenantObject | undefined {
  if (workload.transport === 'graph' && workload.singleton) return live[0];
  if (workload.transport === 'adminCommand' && workload.singleton) return live[0];
  const id = objectIdOf(workload, baseline);
  const name = policyNameOf(workload, baseline) ?? fileName;
  const byName = live.filter((o) => policyNameOf(workload, o) === name);
  return (
    (id ? live.find((o) => objectIdOf(workload, o) === id) : undefined) ??
    // Intune's default enrollment configurations share one display name: the type tells them apart
    (byName.length > 1
      ? byName.find((o) => o['@odata.type'] === baseline['@odata.type'])
      : undefined) ??
    byName[0]
  );
}

export interface DeployCounts {
  created: number;
  updated: number;
  unchanged: number;
  pending: number;
}

function buildReferenceMaps(
  baselineFiles: ReadonlyMap<string, string>,
  live: ReadonlyMap<TenantWorkload, TenantObject[]>,
): ReferenceMaps {
  const maps: ReferenceMaps = { baseline: new Map(), target: new Map() };
  for (const { label, workload } of REFERENCEABLE) {
    for (const file of baselineFilesUnder(baselineFiles, [
      `${RESOURCES_ROOT}/${workload.category}/${workload.kind}`,
    ])) {
      const id = objectIdOf(workload, file.object);
      const name = policyNameOf(workload, file.object);
      if (id && name) maps.baseline.set(id.toLowerCase(), { label, displayName: name });
    }
    for (const object of live.get(workload) ?? []) {
      const id = objectIdOf(workload, object);
      const name = policyNameOf(workload, object);
      if (id && name) maps.target.set(referenceKey(label, name), id);
    }
  }
  return maps;
}

export async function runDeploy(
  context: TaskContext,
  parameters: TaskParameters<'deploy'>,
): Promise<DeployCounts> {
  const { log, repository } = context;
  const client = parameters.ClientCode;
  type Selected = Pick<BaselineComponent, 'paths' | 'type' | 'functionName' | 'accounts'>;
  const selected: [string, Selected][] =
    parameters.Components.length === 0
      ? [['Whole baseline', { paths: [RESOURCES_ROOT], type: 'directory' }]]
      : parameters.Components.map((name) => {
          const component = BASELINE_COMPONENTS[name];
          if (!component) throw new TaskError(`Unknown component '${name}'`);
          return [name, component];
        });
  log.section(`Deploy to ${client}: ${selected.map(([name]) => name).join(', ')}`);

  // a rollout deploys the commit it planned (ADR 078); any other deploy, main as it is now
  const main = parameters.Commit ?? (await repository.branchTip());
  if (parameters.Commit) log.info(`Baseline at commit ${parameters.Commit}`);
  // refused before the backup: a deploy that cannot write what the baseline means writes nothing
  const baselineFiles = await effectiveBaselineTexts(
    context,
    client,
    main,
    selected.flatMap(([, component]) => component.paths),
  );
  const backup = await runBackup(context, { ClientCode: client, ManualRun: true });
  log.info(rollbackPointLine(backup.tag));

  const tenant = await context.tenant();
  const touched = new Set<TenantWorkload>(REFERENCEABLE.map((r) => r.workload));
  const plan = selected.map(([name, component]) => {
    const files = baselineFilesUnder(baselineFiles, component.paths);
    for (const f of files) touched.add(f.workload);
    return { name, component, files };
  });
  // What others reference goes first: functions (the required groups), then by workload order
  // (groups, named locations, then the policies that use them).
  const rank = (entry: (typeof plan)[number]) =>
    entry.component.type === 'function'
      ? -1
      : Math.min(...entry.files.map((f) => TENANT_WORKLOADS.indexOf(f.workload)), Infinity);
  plan.sort((a, b) => rank(a) - rank(b));
  if (plan.some((p) => p.component.functionName === 'New-AegisAccounts')) {
    touched.add(DIRECTORY_USERS_WORKLOAD);
  }
  const live = objectsOfRead(await tenant.readAll([...touched]));
  const maps = buildReferenceMaps(baselineFiles, live);
  // Domains: the baseline tenant's initial domain becomes the client's wherever a setting names it.
  const baselineDomain = baselineInitialDomain(baselineFiles);
  const targetDomain = baselineDomain ? await tenant.initialDomain() : undefined;
  const withDomain = (body: TenantObject): TenantObject =>
    baselineDomain && targetDomain && baselineDomain !== targetDomain
      ? (JSON.parse(JSON.stringify(body).split(baselineDomain).join(targetDomain)) as TenantObject)
      : body;
  const counts: DeployCounts = { created: 0, updated: 0, unchanged: 0, pending: 0 };
  const justification = (component: string) =>
    `Aegis deploy run ${context.runId}: '${component}' to ${client}`;

  for (const { name, component, files } of plan) {
    if (component.functionName && component.functionName !== 'New-AegisGroups') {
      log.section(`Component '${name}' (${component.functionName})`);
      const done = await runFunction(component, {
        tenant,
        files,
        live,
        baselineFiles,
        log,
        justification: justification(name),
      });
      for (const kind of ['created', 'updated', 'unchanged', 'pending'] as const) {
        counts[kind] += done[kind];
      }
      continue;
    }
    log.section(`Component '${name}' (${files.length} objects)`);
    if (files.length === 0) log.warning(`'${name}' has no configuration on main`);
    const createOnly = component.type === 'function';
    for (const file of files) {
      const fileName = file.path.slice(file.path.lastIndexOf('/') + 1, -'.json'.length);
      if (!hasPublicApi(file.workload)) {
        log.warning(
          `'${fileName}' not deployed: Microsoft publishes no API for ${workloadKey(file.workload)}`,
        );
        continue;
      }
      const mapped = mapReferences(withDomain(writableBody(file.object, file.workload)), maps);
      if (mapped.missing.length > 0) {
        throw new TaskError(
          `Cannot deploy '${fileName}' (${name}): the tenant has no ${mapped.missing.join(', ')}. ` +
            `Create ${mapped.missing.length === 1 ? 'it' : 'them'} first (for groups: deploy 'Required Entra ID Groups').`,
        );
      }
      const liveObjects = live.get(file.workload) ?? [];
      const existing = findExisting(file.workload, liveObjects, file.object, fileName);
      const outcome = await applyOne(tenant, file.workload, existing, mapped.body, createOnly, {
        justification: justification(name),
      }).catch((error: unknown) => {
        throw new TaskError(
          `Deploying '${fileName}' (${name}) failed: ${(error as Error).message}`,
        );
      });
      if (outcome.kind === 'pending') {
        counts.pending += 1;
        log.warning(`Pending approval: '${fileName}': ${outcome.message}`);
        continue;
      }
      counts[outcome.kind] += 1;
      log.info(`${outcome.kind} ${file.workload.category}/${file.workload.kind}/${fileName}`);
      if (outcome.kind === 'created' && outcome.object) {
        liveObjects.push(outcome.object);
        live.set(file.workload, liveObjects);
        const ref = REFERENCEABLE.find((r) => r.workload === file.workload);
        const id = objectIdOf(file.workload, outcome.object);
        if (ref && id) maps.target.set(referenceKey(ref.label, fileName), id);
      }
    }
  }
  log.section('Summary');
  log.info(
    `${counts.created} created, ${counts.updated} updated, ${counts.unchanged} already as the baseline, ${counts.pending} waiting for approval`,
  );
  if (counts.pending > 0) {
    log.succeededWithIssues(pendingApprovalSummary(counts.pending, context.runId));
  }
  return counts;
}

const isUnder = (path: string, roots: readonly string[]) =>
  roots.some((root) => path === root || path.startsWith(`${root}/`));

/**
 * The client's effective baseline on main (ADR 068: the company baseline, its layers, its
 * parameters substituted) as texts keyed by the company baseline's paths, which is how the rest of
 * the deploy reads it. Fails naming every parameter the selected policies use that the client
 * lacks, and any selected file that is not JSON.
 */
export async function effectiveBaselineTexts(
  context: Pick<TaskContext, 'log' | 'repository'>,
  client: string,
  commit: string,
  selectedPaths: readonly string[],
): Promise<Map<string, string>> {
  const baseline = await readClientBaseline(context.repository, client, { commit }).catch(
    (error: unknown) => {
      throw new TaskError((error as Error).message);
    },
  );
  const repositoryPath = (resourcePath: string) => `${RESOURCES_ROOT}/${resourcePath}`;
  const missing = baseline.missing
    .map((m) => ({
      name: m.name,
      paths: m.paths.filter((p) => isUnder(repositoryPath(p), selectedPaths)),
    }))
    .filter((m) => m.paths.length > 0);
  if (missing.length > 0) throw new TaskError(missingParametersMessage(client, missing));
  if (baseline.layers.length > 0) {
    context.log.info(
      `Effective baseline: the company baseline, then ${baseline.layers.map((l) => `'${l.name}'`).join(', then ')}`,
    );
  }
  const texts = new Map<string, string>();
  for (const file of baseline.files) {
    const path = repositoryPath(file.path);
    if (file.content === null) {
      if (isUnder(path, selectedPaths)) {
        throw new TaskError(
          `${file.layer ? `Layer '${file.layer}': ` : ''}${path} on main is not valid JSON`,
        );
      }
      continue;
    }
    texts.set(path, JSON.stringify(file.content));
  }
  return texts;
}

export type ApplyOutcome =
  | { kind: 'created'; object?: TenantObject }
  | { kind: 'updated' | 'unchanged' }
  | { kind: 'pending'; message: string };

/** Creates the object, or updates the existing one where it differs (a restore uses it too). */
export async function applyOne(
  tenant: TenantGateway,
  workload: TenantWorkload,
  existing: TenantObject | undefined,
  body: TenantObject,
  createOnly: boolean,
  options: { justification: string },
): Promise<ApplyOutcome> {
  if (existing && (createOnly || alreadyApplied(existing, body))) return { kind: 'unchanged' };
  const outcome = existing
    ? await tenant.update(workload, existing, updateBody(body), options)
    : await tenant.create(workload, body, options);
  if (outcome.status === 'pendingApproval') return { kind: 'pending', message: outcome.message };
  return existing
    ? { kind: 'updated' }
    : { kind: 'created', ...(outcome.object ? { object: outcome.object } : {}) };
}

/** The baseline tenant's `….onmicrosoft.com` domain, as its exports name it. */
function baselineInitialDomain(files: ReadonlyMap<string, string>): string | undefined {
  for (const text of files.values()) {
    const match = /"([a-z0-9-]+\.onmicrosoft\.com)"/i.exec(text);
    if (match?.[1]) return match[1].toLowerCase();
  }
  return undefined;
}

// ---- components of type function ------------------------------------------------------------

interface FunctionContext {
  tenant: TenantGateway;
  files: BaselineFile[];
  live: Map<TenantWorkload, TenantObject[]>;
  baselineFiles: ReadonlyMap<string, string>;
  log: TaskContext['log'];
  justification: string;
}

/** The Intune prefix Remove-AegisRetiredPolicies looks for. */
const RETIRED_POLICY_PREFIX = 'Baseline - ';

/** A password for a new account: 24 random characters from four classes; never logged. */
function newAccountPassword(): string {
  const classes = [
    'ABCDEFGHJKLMNPQRSTUVWXYZ',
    'abcdefghijkmnopqrstuvwxyz',
    '23456789',
    '!@#$%*-_+=',
  ];
  const bytes = randomBytes(24);
  return [...bytes]
    .map((b, i) => {
      const set = classes[i % classes.length] ?? '';
      return set.charAt(b % set.length);
    })
    .join('');
}

async function runFunction(
  component: Pick<BaselineComponent, 'functionName' | 'accounts'>,
  context: FunctionContext,
): Promise<DeployCounts> {
  const { tenant, files, live, baselineFiles, log, justification } = context;
  const counts: DeployCounts = { created: 0, updated: 0, unchanged: 0, pending: 0 };
  const record = (outcome: WriteOutcome, kind: 'created' | 'updated', what: string) => {
    if (outcome.status === 'pendingApproval') {
      counts.pending += 1;
      log.warning(`Pending approval: ${what}: ${outcome.message}`);
    } else {
      counts[kind] += 1;
      log.info(`${kind} ${what}`);
    }
  };
  switch (component.functionName) {
    case 'Enable-OrganizationCustomization': {
      const workload = workloadFor('Exchange', 'OrganizationConfig');
      if (!workload) throw new TaskError('Exchange/OrganizationConfig is not a known workload');
      const org = live.get(workload)?.[0];
      if (org && org['IsDehydrated'] === false) {
        counts.unchanged += 1;
        log.info('Organisation customisation is already enabled');
      } else {
        const outcome = await tenant.enableOrganizationCustomization({ justification });
        record(
          outcome,
          'updated',
          'Exchange/OrganizationConfig (Enable-OrganizationCustomization)',
        );
      }
      return counts;
    }
    case 'Remove-AegisRetiredPolicies': {
      const kept = new Set(
        files.map(
          (f) =>
            `${f.workload.category}/${f.workload.kind}/${policyNameOf(f.workload, f.object) ?? ''}`,
        ),
      );
      const intune = TENANT_WORKLOADS.filter((w) => w.category === 'Intune');
      const current = objectsOfRead(await tenant.readAll(intune));
      for (const workload of intune) {
        for (const object of current.get(workload) ?? []) {
          const name = policyNameOf(workload, object);
          if (!name?.startsWith(RETIRED_POLICY_PREFIX)) continue;
          const what = `${workload.category}/${workload.kind}/${name}`;
          if (kept.has(what)) continue;
          const outcome = await tenant.remove(workload, object, { justification });
          if (outcome.status === 'pendingApproval') {
            counts.pending += 1;
            log.warning(`Pending approval: removing ${what}: ${outcome.message}`);
          } else {
            counts.updated += 1;
            log.info(`removed retired ${what}`);
          }
        }
      }
      if (counts.updated + counts.pending === 0) log.info('No retired baseline policies found');
      void baselineFiles;
      return counts;
    }
    case 'New-AegisAccounts': {
      const domain = await tenant.initialDomain();
      if (!domain) throw new TaskError('The tenant has no initial domain to create accounts in');
      const users = live.get(DIRECTORY_USERS_WORKLOAD) ?? [];
      for (const local of component.accounts ?? []) {
        const account = DIRECTORY_ACCOUNTS[local];
        if (!account) throw new TaskError(`Unknown account '${local}'`);
        const upn = `${local}@${domain}`;
        if (users.some((u) => textOf(u['userPrincipalName'] ?? '').toLowerCase() === upn)) {
          counts.unchanged += 1;
          log.info(`account ${upn} already exists`);
          continue;
        }
        const outcome = await tenant.create(DIRECTORY_USERS_WORKLOAD, {
          accountEnabled: true,
          displayName: account.displayName,
          mailNickname: local,
          userPrincipalName: upn,
          usageLocation: 'GB',
          passwordProfile: {
            forceChangePasswordNextSignIn: account.kind === 'service' ? false : true,
            password: newAccountPassword(),
          },
        });
        record(outcome, 'created', `account ${upn}`);
      }
      return counts;
    }
    default:
      throw new TaskError(`Unknown function '${component.functionName ?? ''}'`);
  }
}
