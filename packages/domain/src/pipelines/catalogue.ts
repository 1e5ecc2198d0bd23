// The pipeline catalogue (issue 10 §2, ADR 015): every pipeline Aegis runs, how it is found (a
// fixed id, or a folder and a name), and the body of each kind of run (spec 1 §7, spec 2 §7,
// spec 3 §7). No pipeline id or run body is written anywhere else: the server starts runs from
// here and the DevOps emulator seeds its pipelines from here.
import { parseBackupTag } from '../backups/tags';
import { DEFAULT_BASELINE_VERSION } from '../capture/branches';
import { parseClientCode } from '../clients';
import { InputError } from '../errors';
import { MAIN_REF } from '../repository-layout';

/** How a pipeline is found: by its fixed id, or by folder and name within a project. */
export type PipelineLocator =
  | { readonly id: number; readonly name?: string; readonly folder?: string }
  | { readonly id?: undefined; readonly name: string; readonly folder: string };

export interface CataloguedPipeline {
  /** the id when the specs fix one; undefined for pipelines found by folder and name */
  readonly id?: number;
  readonly name: string;
  /** folder without backslashes; nested folders joined with a backslash */
  readonly folder: string;
  /** YAML runtime parameters the run body sets (templateParameters) */
  readonly templateParameters: readonly string[];
  /** pipeline variables the run body sets (variables), secret ones included */
  readonly variables: readonly string[];
}

/** Spec 2 §7: client tenant pipelines live in the folder 'Tenants'. */
export const TENANT_PIPELINES_FOLDER = 'Tenants';
/** Spec 2 §7: the baseline deploy and remove pipelines live in the folder 'Aegis'. */
export const AEGIS_PIPELINES_FOLDER = 'Aegis';

/** A pipeline a client gets when it is onboarded: its name and folder (folder without backslashes). */
export interface ClientPipeline {
  readonly name: string;
  readonly folder: string;
}

/**
 * Spec 2 §7 (ADR 055): the tenant's pipeline, which tenant onboarding (178, legacy 75) creates under
 * 'Tenants'. Baseline Deployment and Off-Board list these, so this is what makes an onboarded tenant
 * a deploy target; the app-deploy flows read the same folder as 'already onboarded'.
 */
export function tenantPipelineOf(client: string): ClientPipeline {
  return {
    name: `${client} Tenant Configuration`,
    folder: `${TENANT_PIPELINES_FOLDER}\\${client}`,
  };
}

/**
 * Spec 2 §7 (ADR 055): the client's app-deployment pipeline, in a folder named by the code, since
 * `/ViewAppList` reads `Client_Yaml_Files/{folder}-azure-pipelines.yml`. Both onboarding flows make it.
 */
export function appDeployPipelineOf(client: string): ClientPipeline {
  return { name: `${client} - Workstation App Deployment`, folder: client };
}

/** Variables that carry credentials: always sent with isSecret, never logged or returned. */
export const SECRET_VARIABLE_NAMES = ['TenantAdminUserName', 'TenantAdminUserPW'] as const;
export type SecretVariableName = (typeof SECRET_VARIABLE_NAMES)[number];

export function isSecretVariableName(name: string): name is SecretVariableName {
  return (SECRET_VARIABLE_NAMES as readonly string[]).includes(name);
}

/** Every pipeline the product runs by a fixed id or a fixed folder and name. */
export const PIPELINE_CATALOGUE = {
  /** Spec 2 §9: old app-deploy onboarding. */
  appDeployOnboardingLegacy: {
    id: 55,
    name: 'App Deploy Onboarding (Legacy)',
    folder: 'Onboarding',
    templateParameters: [],
    variables: ['ClientCode', 'Domain', 'TenantAdminUserName', 'TenantAdminUserPW'],
  },
  /** Spec 2 §9: legacy tenant onboarding. */
  tenantOnboardingLegacy: {
    id: 75,
    name: 'Tenant Onboarding (Legacy)',
    folder: 'Onboarding',
    templateParameters: [],
    variables: [
      'ClientCode',
      'Domain',
      'subscriptionForLogin',
      'TenantAdminUserName',
      'TenantAdminUserPW',
    ],
  },
  /** Spec 2 §9: tenant onboarding build. */
  tenantOnboarding: {
    id: 178,
    name: 'Tenant Onboarding',
    folder: 'Onboarding',
    templateParameters: [
      'ClientCode',
      'Domain',
      'subscriptionForLogin',
      'TenantId',
      'EnrollInPowerSupport',
      'Region',
    ],
    variables: [],
  },
  /** Spec 2 §9: new app-deploy onboarding. */
  appDeployOnboarding: {
    id: 191,
    name: 'App Deploy Onboarding',
    folder: 'Onboarding',
    templateParameters: ['ClientCode', 'Domain', 'ClientTenantID', 'EnterpriseAppID'],
    variables: [],
  },
  /** Spec 3 §9: the backup pipeline. */
  backup: {
    id: 212,
    name: 'Tenant Configuration Backup',
    folder: AEGIS_PIPELINES_FOLDER,
    templateParameters: ['ClientCode', 'ManualRun'],
    variables: [],
  },
  /** Spec 3 §9: the capture pipeline. */
  capture: {
    id: 216,
    name: 'Tenant Configuration Capture',
    folder: AEGIS_PIPELINES_FOLDER,
    templateParameters: ['ClientCode', 'ExcludedProperties', 'ExcludedPaths', 'BaselineVersion'],
    variables: [],
  },
  /**
   * Spec 2 §7: found by folder 'Aegis' and this name; runs for the whole baseline (no Components)
   * or with Components. ClientCode names the tenant (ADR 032: the spec leaves it implicit).
   */
  deployBaseline: {
    name: 'Deploy Baseline Tenant Configuration',
    folder: AEGIS_PIPELINES_FOLDER,
    // RestoreFrom and Policies (issue 30 §4, ADR 069): a deploy of chosen objects from a backup,
    // or from main to revert drift (issue 28 §5, ADR 071)
    templateParameters: ['ClientCode', 'Components', 'RestoreFrom', 'Policies'],
    variables: [],
  },
  /** Spec 2 §7: found by folder 'Aegis' and this name; the off-board run with Components. */
  removeBaseline: {
    name: 'Remove Baseline Tenant Configuration',
    folder: AEGIS_PIPELINES_FOLDER,
    // DroppedLayers (ADR 079): removes the policies of layers the client no longer has
    templateParameters: ['ClientCode', 'Components', 'DroppedLayers'],
    variables: [],
  },
  /**
   * Issue 28 (ADR 063): found by folder 'Aegis' and this name; scheduled every 5 minutes without a
   * ClientCode (every client that is due), or run for one client with Kind quick or full.
   */
  driftCheck: {
    name: 'Tenant Drift Check',
    folder: AEGIS_PIPELINES_FOLDER,
    templateParameters: ['ClientCode', 'Kind'],
    variables: [],
  },
  /**
   * Issue 32 (ADR 062): stores every client's fleet summary at main's tip; scheduled nightly and
   * run when the baseline changes, so no Fleet page computes the fleet cold.
   */
  fleetRebuild: {
    name: 'Fleet Summary Rebuild',
    folder: AEGIS_PIPELINES_FOLDER,
    templateParameters: [],
    variables: [],
  },
  /**
   * Issue 29 (ADR 089): each scheduled client's customer report for its due period, sent once;
   * scheduled daily.
   */
  customerReports: {
    name: 'Customer Reports',
    folder: AEGIS_PIPELINES_FOLDER,
    templateParameters: [],
    variables: [],
  },
} as const satisfies Record<string, CataloguedPipeline>;

export type CataloguedPipelineKey = keyof typeof PIPELINE_CATALOGUE;

/** The fixed ids, by catalogue key (pipelines found by name have none). */
export const FIXED_PIPELINE_IDS = {
  appDeployOnboardingLegacy: PIPELINE_CATALOGUE.appDeployOnboardingLegacy.id,
  tenantOnboardingLegacy: PIPELINE_CATALOGUE.tenantOnboardingLegacy.id,
  tenantOnboarding: PIPELINE_CATALOGUE.tenantOnboarding.id,
  appDeployOnboarding: PIPELINE_CATALOGUE.appDeployOnboarding.id,
  backup: PIPELINE_CATALOGUE.backup.id,
  capture: PIPELINE_CATALOGUE.capture.id,
} as const;

export type FixedPipelineKey = keyof typeof FIXED_PIPELINE_IDS;
export type PipelineIdOverrides = Readonly<Partial<Record<FixedPipelineKey, number>>>;

/**
 * An organisation's own ids for the pipelines the specs fix by id, written `key=id,key=id` with
 * the catalogue's keys (e.g. `capture=1234,backup=1301`): Azure DevOps numbers pipelines itself,
 * so a real organisation's capture pipeline is not 216 (ADR 015). InputError names a bad entry.
 */
export function parsePipelineIdOverrides(text: string): PipelineIdOverrides {
  const overrides: Partial<Record<FixedPipelineKey, number>> = {};
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [key = '', id = '', ...rest] = entry.split('=').map((part) => part.trim());
    if (!(key in FIXED_PIPELINE_IDS))
      throw new InputError(
        `'${entry}': '${key}' is not a fixed pipeline (one of ${Object.keys(FIXED_PIPELINE_IDS).join(', ')})`,
      );
    if (rest.length > 0 || !/^[1-9]\d{0,9}$/.test(id))
      throw new InputError(`'${entry}': the id must be a positive whole number`);
    overrides[key as FixedPipelineKey] = Number(id);
  }
  return overrides;
}

/** The catalogue entry a pipeline (id, or folder and name as the service lists them) is, if any. */
export function cataloguedPipelineOf(pipeline: {
  id: number;
  name: string;
  folder: string;
}): CataloguedPipelineKey | undefined {
  const folder = normalisePipelineFolder(pipeline.folder);
  for (const [key, entry] of Object.entries(PIPELINE_CATALOGUE) as [
    CataloguedPipelineKey,
    CataloguedPipeline,
  ][]) {
    const found =
      entry.id !== undefined
        ? entry.id === pipeline.id
        : entry.name.toLowerCase() === pipeline.name.toLowerCase() &&
          entry.folder.toLowerCase() === folder.toLowerCase();
    if (found) return key;
  }
  return undefined;
}

/** A folder as the service gives it (`\\Aegis`, `\\Tenants\\ABC`) without leading or trailing backslashes. */
export function normalisePipelineFolder(folder: string | undefined): string {
  return (folder ?? '').replace(/^\\+|\\+$/g, '');
}

/**
 * Whether a pipeline lives under the client tenant pipelines' folder 'Tenants' (spec 2 §7), however
 * the service spells the folder's backslashes and case (Azure DevOps folder names ignore case).
 */
export function isTenantPipelineFolder(folder: string | undefined): boolean {
  const root = normalisePipelineFolder(folder).split('\\', 1)[0] ?? '';
  return root.toLowerCase() === TENANT_PIPELINES_FOLDER.toLowerCase();
}

/** Whether a listed pipeline is the client pipeline named (folder and name; the service ignores case in both). */
export function isClientPipeline(
  pipeline: { folder?: string | undefined; name: string },
  { name, folder }: ClientPipeline,
): boolean {
  return (
    normalisePipelineFolder(pipeline.folder).toLowerCase() === folder.toLowerCase() &&
    pipeline.name.toLowerCase() === name.toLowerCase()
  );
}

/**
 * The app-deploy flows' 'already onboarded' (spec 2 §5, ADR 055): a pipeline under the Tenants
 * folder whose path there (sub-folders and name) contains the client code (tenant onboarding made
 * it, and with it the app deployment), or the client's app-deployment pipeline
 * `{CODE} - Workstation App Deployment` in `\{CODE}`, which is what app-deploy onboarding makes.
 * Give it the organisation's pipelines (every project), as the onboarding task looks for its own
 * pipeline in any project. The one rule of the app-deploy screens and their run routes.
 */
export function isOnboardingPipelineOf(
  pipeline: { folder?: string | undefined; name: string },
  clientCode: string,
): boolean {
  if (isClientPipeline(pipeline, appDeployPipelineOf(clientCode))) return true;
  if (!isTenantPipelineFolder(pipeline.folder)) return false;
  return `${normalisePipelineFolder(pipeline.folder)}\\${pipeline.name}`.includes(clientCode);
}

/** Whether a listed pipeline is the one the locator names. */
export function matchesLocator(
  locator: PipelineLocator,
  pipeline: { id: number; name: string; folder: string },
): boolean {
  if (locator.id !== undefined) return pipeline.id === locator.id;
  return (
    pipeline.name === locator.name &&
    normalisePipelineFolder(pipeline.folder).toLowerCase() === locator.folder.toLowerCase()
  );
}

/** A locator for a catalogued pipeline: its id when fixed, else its folder and name. */
export function locatorOf(key: CataloguedPipelineKey): PipelineLocator {
  const entry: CataloguedPipeline = PIPELINE_CATALOGUE[key];
  return entry.id !== undefined
    ? { id: entry.id, name: entry.name, folder: entry.folder }
    : { name: entry.name, folder: entry.folder };
}

// ---- run bodies --------------------------------------------------------------------------

export interface RunVariable {
  readonly value: string;
  readonly isSecret?: boolean;
}

/** The body of POST {project}/_apis/pipelines/{id}/runs in domain terms (spec 1 §7). */
export interface PipelineRunBody {
  /** the pipeline repository's ref: main */
  readonly refName: string;
  readonly stagesToSkip: readonly string[];
  readonly templateParameters?: Readonly<Record<string, string>>;
  readonly variables?: Readonly<Record<string, RunVariable>>;
}

/** A run to start: which pipeline and with which body. */
export interface PipelineRunRequest {
  readonly pipeline: PipelineLocator;
  readonly body: PipelineRunBody;
  /** the catalogue entry, when the pipeline is one */
  readonly catalogueKey?: CataloguedPipelineKey;
}

function body(
  parts: Pick<PipelineRunBody, 'templateParameters' | 'variables'> = {},
): PipelineRunBody {
  return { refName: MAIN_REF, stagesToSkip: [], ...parts };
}

function catalogued(
  key: CataloguedPipelineKey,
  parts?: Pick<PipelineRunBody, 'templateParameters' | 'variables'>,
): PipelineRunRequest {
  return { pipeline: locatorOf(key), body: body(parts), catalogueKey: key };
}

function required(value: string, field: string): string {
  const v = value.trim();
  if (!v) throw new InputError(`${field} is required`, field);
  return v;
}

function secret(value: string, field: string): RunVariable {
  if (!value) throw new InputError(`${field} is required`, field);
  return { value, isSecret: true };
}

function plain(value: string): RunVariable {
  return { value };
}

/** Spec 1 §2: a client pipeline run bare (no parameters), e.g. Run Pipeline on the pipelines list. */
export function bareRun(pipelineId: number): PipelineRunRequest {
  return { pipeline: { id: pipelineId }, body: body() };
}

/** Spec 1 §2: an app deployment pipeline run with the chosen app, as a single-item AppList. */
export function appListRun(pipelineId: number, app: string): PipelineRunRequest {
  return {
    pipeline: { id: pipelineId },
    body: body({ templateParameters: { AppList: JSON.stringify([required(app, 'app')]) } }),
  };
}

/** Spec 3 §7: the manual backup, pipeline 212 with ClientCode and ManualRun true. */
export function backupRun(input: { clientCode: string }): PipelineRunRequest {
  return catalogued('backup', {
    templateParameters: {
      ClientCode: parseClientCode(input.clientCode, 'clientCode'),
      ManualRun: 'true',
    },
  });
}

/**
 * Spec 3 §7: the capture, pipeline 216 with ClientCode and, when not empty, ExcludedProperties and
 * ExcludedPaths JSON-encoded; BaselineVersion (default 1.0.0, spec 3 §9) is recorded in the
 * capture's metadata.
 */
export function captureRun(input: {
  clientCode: string;
  excludedProperties?: readonly string[];
  excludedPaths?: readonly string[];
  baselineVersion?: string;
}): PipelineRunRequest {
  const { excludedProperties = [], excludedPaths = [] } = input;
  return catalogued('capture', {
    templateParameters: {
      ClientCode: parseClientCode(input.clientCode, 'clientCode'),
      ...(excludedProperties.length
        ? { ExcludedProperties: JSON.stringify(excludedProperties) }
        : {}),
      ...(excludedPaths.length ? { ExcludedPaths: JSON.stringify(excludedPaths) } : {}),
      BaselineVersion: input.baselineVersion?.trim() || DEFAULT_BASELINE_VERSION,
    },
  });
}

/** Issue 28 (ADR 063): a full drift check of one client now (the schedule checks every due client). */
export function driftCheckRun(input: { clientCode: string }): PipelineRunRequest {
  return catalogued('driftCheck', {
    templateParameters: {
      ClientCode: parseClientCode(input.clientCode, 'clientCode'),
      Kind: 'full',
    },
  });
}

/** Spec 2 §7: new app-deploy onboarding, pipeline 191. */
export function appDeployOnboardingRun(input: {
  clientCode: string;
  domain: string;
  clientTenantId: string;
  enterpriseAppId: string;
}): PipelineRunRequest {
  return catalogued('appDeployOnboarding', {
    templateParameters: {
      ClientCode: parseClientCode(input.clientCode, 'clientCode'),
      Domain: required(input.domain, 'domain'),
      ClientTenantID: required(input.clientTenantId, 'clientTenantId'),
      EnterpriseAppID: required(input.enterpriseAppId, 'enterpriseAppId'),
    },
  });
}

/**
 * Spec 2 §7: old app-deploy onboarding, pipeline 55 (client code, domain, username, password).
 * A classic variable-driven pipeline: everything travels as variables, the credentials as
 * secret variables TenantAdminUserName and TenantAdminUserPW.
 */
export function appDeployOnboardingLegacyRun(input: {
  clientCode: string;
  domain: string;
  username: string;
  password: string;
}): PipelineRunRequest {
  return catalogued('appDeployOnboardingLegacy', {
    variables: {
      ClientCode: plain(parseClientCode(input.clientCode, 'clientCode')),
      Domain: plain(required(input.domain, 'domain')),
      TenantAdminUserName: secret(input.username, 'username'),
      TenantAdminUserPW: secret(input.password, 'password'),
    },
  });
}

/**
 * Spec 1 §7 / spec 2 §7: legacy tenant onboarding, pipeline 75: ClientCode, Domain and
 * subscriptionForLogin plus the secret variables TenantAdminUserName and TenantAdminUserPW.
 */
export function tenantOnboardingLegacyRun(input: {
  clientCode: string;
  domain: string;
  subscriptionForLogin: string;
  username: string;
  password: string;
}): PipelineRunRequest {
  return catalogued('tenantOnboardingLegacy', {
    variables: {
      ClientCode: plain(parseClientCode(input.clientCode, 'clientCode')),
      Domain: plain(required(input.domain, 'domain')),
      subscriptionForLogin: plain(required(input.subscriptionForLogin, 'subscriptionForLogin')),
      TenantAdminUserName: secret(input.username, 'username'),
      TenantAdminUserPW: secret(input.password, 'password'),
    },
  });
}

/**
 * Spec 1 §7 / spec 2 §7: tenant onboarding, pipeline 178: ClientCode, Domain,
 * subscriptionForLogin, TenantId, EnrollInPowerSupport ('true'/'false') and Region (the region's
 * API name).
 */
export function tenantOnboardingRun(input: {
  clientCode: string;
  domain: string;
  subscriptionForLogin: string;
  tenantId: string;
  enrollInPowerSupport: boolean;
  region: string;
}): PipelineRunRequest {
  return catalogued('tenantOnboarding', {
    templateParameters: {
      ClientCode: parseClientCode(input.clientCode, 'clientCode'),
      Domain: required(input.domain, 'domain'),
      subscriptionForLogin: required(input.subscriptionForLogin, 'subscriptionForLogin'),
      TenantId: required(input.tenantId, 'tenantId'),
      EnrollInPowerSupport: input.enrollInPowerSupport ? 'true' : 'false',
      Region: required(input.region, 'region'),
    },
  });
}

function componentsParameter(components: readonly string[]): string {
  if (components.length === 0) throw new InputError('components must not be empty', 'components');
  return JSON.stringify(components);
}

/** What a rollout's run carries (ADR 078): the commit it deploys and the claim that finds it. */
interface RolloutRunTags {
  readonly commitId: string;
  readonly claim: string;
}

/** The template parameter a rollout's deploy or restore run carries its claim token in. */
export const ROLLOUT_CLAIM_PARAMETER = 'RolloutClaim';

/**
 * Spec 2 §7: the full baseline deploy, 'Deploy Baseline Tenant Configuration' without Components
 * (the whole baseline), for the client the ClientCode names (ADR 032). A rollout's deploy also
 * names its planned commit of main and its claim token (ADR 078).
 */
export function fullBaselineDeployRun(input: {
  clientCode: string;
  rollout?: RolloutRunTags;
}): PipelineRunRequest {
  return catalogued('deployBaseline', {
    templateParameters: {
      ClientCode: parseClientCode(input.clientCode, 'clientCode'),
      ...(input.rollout
        ? { Commit: input.rollout.commitId, [ROLLOUT_CLAIM_PARAMETER]: input.rollout.claim }
        : {}),
    },
  });
}

/** Spec 2 §7: deploy with components (the Components array, JSON-encoded). */
export function deployComponentsRun(input: {
  clientCode: string;
  components: readonly string[];
}): PipelineRunRequest {
  return catalogued('deployBaseline', {
    templateParameters: {
      ClientCode: parseClientCode(input.clientCode, 'clientCode'),
      Components: componentsParameter(input.components),
    },
  });
}

/**
 * Issue 30 §4 (ADR 069): the deploy pipeline putting chosen policies (resource paths) of a client
 * back into its tenant as a backup of the client has them.
 */
export function restoreObjectsRun(input: {
  clientCode: string;
  backupTag: string;
  policies: readonly string[];
  /** a rollout's rollback run: the claim token that finds it again (ADR 078) */
  rolloutClaim?: string;
}): PipelineRunRequest {
  const clientCode = parseClientCode(input.clientCode, 'clientCode');
  if (!parseBackupTag(input.backupTag, clientCode)) {
    throw new InputError(`tag must be a backup tag of ${clientCode}`, 'tag');
  }
  if (input.policies.length === 0) throw new InputError('policies must not be empty', 'policies');
  return catalogued('deployBaseline', {
    templateParameters: {
      ClientCode: clientCode,
      RestoreFrom: input.backupTag,
      Policies: JSON.stringify(input.policies),
      ...(input.rolloutClaim ? { [ROLLOUT_CLAIM_PARAMETER]: input.rolloutClaim } : {}),
    },
  });
}

/** RestoreFrom naming the client's approved configuration on main's tip rather than a backup. */
export const RESTORE_FROM_MAIN = 'main';

/**
 * Issue 28 §5 (ADR 071): the deploy pipeline putting chosen drifted policies (resource paths) of a
 * client back into its tenant as the client's approved configuration on main has them.
 */
export function revertDriftRun(input: {
  clientCode: string;
  policies: readonly string[];
}): PipelineRunRequest {
  const clientCode = parseClientCode(input.clientCode, 'clientCode');
  if (input.policies.length === 0) throw new InputError('objects must not be empty', 'objects');
  return catalogued('deployBaseline', {
    templateParameters: {
      ClientCode: clientCode,
      RestoreFrom: RESTORE_FROM_MAIN,
      Policies: JSON.stringify(input.policies),
    },
  });
}

/** Spec 2 §7: off-board, 'Remove Baseline Tenant Configuration' with the Components array. */
export function offboardRun(input: {
  clientCode: string;
  components: readonly string[];
}): PipelineRunRequest {
  return catalogued('removeBaseline', {
    templateParameters: {
      ClientCode: parseClientCode(input.clientCode, 'clientCode'),
      Components: componentsParameter(input.components),
    },
  });
}

/** Off-board the policies of layers the client no longer has (ADR 079). */
export function droppedLayersOffboardRun(input: {
  clientCode: string;
  layers: readonly string[];
}): PipelineRunRequest {
  if (input.layers.length === 0) throw new InputError('layers must not be empty', 'layers');
  return catalogued('removeBaseline', {
    templateParameters: {
      ClientCode: parseClientCode(input.clientCode, 'clientCode'),
      DroppedLayers: JSON.stringify(input.layers),
    },
  });
}

/**
 * A run body as it may be shown or logged: secret variable values (and any variable marked
 * secret) replaced by '***'.
 */
export function redactRunBody(runBody: PipelineRunBody): PipelineRunBody {
  if (!runBody.variables) return runBody;
  return {
    ...runBody,
    variables: Object.fromEntries(
      Object.entries(runBody.variables).map(([name, v]) => [
        name,
        v.isSecret || isSecretVariableName(name) ? { value: '***', isSecret: true } : v,
      ]),
    ),
  };
}

/** The secret values a run body carries (so tests and log checks can look for them). */
export function secretValuesOf(runBody: PipelineRunBody): string[] {
  return Object.entries(runBody.variables ?? {})
    .filter(([name, v]) => v.isSecret || isSecretVariableName(name))
    .map(([, v]) => v.value);
}
