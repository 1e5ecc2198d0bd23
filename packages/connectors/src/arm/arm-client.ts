// Azure Resource Manager through Microsoft's SDKs (ADR 058): subscriptions
// (@azure/arm-resources-subscriptions), role assignments (@azure/arm-authorization), policy
// assignments (@azure/arm-policy) and resources by id and resource groups (@azure/arm-resources;
// Microsoft publishes no JavaScript SDK for Microsoft.Maintenance, so maintenance configurations
// are addressed by id with their provider's api-version). Every call is an operation of
// packages/emulators/contracts/arm.json. The SDKs run on Aegis's token acquisition, retry and
// timeout (shared/azure-sdk-pipeline.ts); their errors become ServiceErrors keeping ARM's code,
// message and request id.
import { AuthorizationManagementClient } from '@azure/arm-authorization';
import { PolicyClient } from '@azure/arm-policy';
import { ResourceManagementClient } from '@azure/arm-resources';
import { SubscriptionClient } from '@azure/arm-resources-subscriptions';
import type { TokenCredential } from '@azure/core-auth';
import type { HttpClient, PipelinePolicy } from '@azure/core-rest-pipeline';

import {
  DEFAULT_TIMEOUT_IN_MS,
  ServiceError,
  bearerTokenPolicy,
  fetchHttpClient,
  parseRetryAfter,
  retryPolicy,
  timeoutPolicy,
  tokenCredential,
  withAegisAuthentication,
  type RetryOptions,
} from '../shared';

export const ARM_BASE_URL = 'https://management.azure.com';

/**
 * The api-version of Microsoft.Resources' own operations (resource groups, the resource list): the
 * one the extract holds (ADR 058), not @azure/arm-resources 8's default.
 */
export const RESOURCES_API_VERSION = '2021-04-01';

/** Built-in Azure role definition GUIDs, the same in every subscription (reference §2.3). */
export const AZURE_ROLE_IDS = {
  reader: 'acdd72a7-3385-48ef-bd42-f606fba81ae7',
  contributor: 'b24988ac-6180-42a0-ab88-20f7382dd24c',
  resourcePolicyContributor: '36243c78-bf99-498c-9df9-86d9f8d28608',
  owner: '8e3af657-a8ff-443c-a75c-2fe8c4bcb635',
  userAccessAdministrator: '18d7d88d-d35e-4fb5-a5c3-7773c20a72d9',
} as const;

export interface ArmClientOptions {
  /** ARM's base URL (AEGIS_ARM_URL); default https://management.azure.com */
  baseUrl?: string;
  getToken: () => Promise<string>;
  /** Aegis's retry (the SDKs' own is off) */
  retry?: RetryOptions;
  /** sends through this fetch instead of the SDK's HTTP client (counted or recorded calls) */
  fetch?: typeof fetch;
  /** how long one attempt may take (default 30 s) */
  timeoutInMs?: number;
}

export interface Subscription {
  id: string;
  subscriptionId: string;
  tenantId?: string;
  displayName: string;
  state: string;
}

export interface CreateRoleAssignment {
  /** e.g. `/subscriptions/{id}` */
  scope: string;
  /** the role definition GUID (AZURE_ROLE_IDS) */
  roleDefinitionGuid: string;
  /** the principal's object id (for an app: its service principal's id, not the appId) */
  principalId: string;
  principalType: 'User' | 'Group' | 'ServicePrincipal' | 'ForeignGroup';
  description?: string;
  /** the assignment's name; a new GUID when absent */
  name?: string;
}

export interface RoleAssignment {
  id: string;
  name: string;
  roleDefinitionId: string;
  principalId: string;
  scope: string;
}

export type RoleAssignmentOutcome =
  | { status: 'created'; assignment: RoleAssignment }
  | { status: 'updated'; assignment: RoleAssignment }
  /** the same principal, role and scope were already assigned (409 RoleAssignmentExists) */
  | { status: 'alreadyExists' };

/** An ARM resource as ARM writes it (`properties` nested, as captured into the repository). */
export type ArmResource = Record<string, unknown> & { id?: string; name?: string };

interface RestErrorLike {
  name: string;
  message: string;
  statusCode?: number;
  code?: string;
  response?: { headers?: { get(name: string): string | undefined }; bodyAsText?: string | null };
}

function isRestError(error: unknown): error is RestErrorLike {
  return error instanceof Error && error.name === 'RestError';
}

/** ARM's `{"error":{"code","message"}}` of a failed answer. */
export function parseArmError(text: string | null | undefined): {
  code?: string;
  message?: string;
} {
  try {
    const parsed = JSON.parse(text ?? '') as { error?: { code?: unknown; message?: unknown } };
    const error = parsed.error;
    return {
      ...(typeof error?.code === 'string' ? { code: error.code } : {}),
      ...(typeof error?.message === 'string' ? { message: error.message } : {}),
    };
  } catch {
    return {};
  }
}

/** An SDK failure as a ServiceError with ARM's own code, message and request id. */
export function toArmServiceError(error: unknown): unknown {
  if (!isRestError(error)) return error;
  const parsed = parseArmError(error.response?.bodyAsText);
  const headers = error.response?.headers;
  const requestId =
    headers?.get('x-ms-request-id') ?? headers?.get('x-ms-correlation-request-id') ?? undefined;
  const retryAfterInMs = parseRetryAfter(headers?.get('retry-after'));
  return new ServiceError(parsed.message ?? error.message, {
    service: 'arm',
    ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
    ...((parsed.code ?? error.code) ? { code: parsed.code ?? error.code } : {}),
    ...(requestId ? { requestId } : {}),
    ...(retryAfterInMs !== undefined ? { retryAfterInMs } : {}),
    cause: error,
  });
}

async function call<T>(operation: () => PromiseLike<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toArmServiceError(error);
  }
}

/** The SDK's model as JSON (its dates as ARM's ISO strings). */
function asJson(value: unknown): ArmResource {
  return JSON.parse(JSON.stringify(value ?? {})) as ArmResource;
}

export class ArmClient {
  readonly baseUrl: string;
  private readonly credential: TokenCredential;
  private readonly clientOptions: {
    endpoint: string;
    retryOptions: { maxRetries: 0 };
    additionalPolicies: { policy: PipelinePolicy; position: 'perCall' | 'perRetry' }[];
    allowInsecureConnection: boolean;
    httpClient?: HttpClient;
  };

  constructor(options: ArmClientOptions) {
    this.baseUrl = (options.baseUrl ?? ARM_BASE_URL).replace(/\/+$/, '');
    this.credential = tokenCredential(options.getToken);
    this.clientOptions = {
      endpoint: this.baseUrl,
      // Aegis's retry owns retries (ADR 058): the SDK's would retry each of ours again
      retryOptions: { maxRetries: 0 },
      additionalPolicies: [
        { policy: retryPolicy('arm', options.retry), position: 'perCall' },
        {
          policy: timeoutPolicy('arm', options.timeoutInMs ?? DEFAULT_TIMEOUT_IN_MS),
          position: 'perRetry',
        },
        { policy: bearerTokenPolicy(this.credential), position: 'perRetry' },
      ],
      // the transport's own check: plain http only when ARM's URL is (the tenant emulator's)
      allowInsecureConnection: this.baseUrl.startsWith('http://'),
      ...(options.fetch ? { httpClient: fetchHttpClient(options.fetch) } : {}),
    };
  }

  private resources(subscriptionId: string): ResourceManagementClient {
    return withAegisAuthentication(
      new ResourceManagementClient(this.credential, subscriptionId, {
        ...this.clientOptions,
        apiVersion: RESOURCES_API_VERSION,
      }),
    );
  }

  // ----- onboarding (spec 2 §7) -----

  /** Subscriptions_List: every subscription the caller sees, across pages. */
  async listSubscriptions(): Promise<Subscription[]> {
    const client = withAegisAuthentication(
      new SubscriptionClient(this.credential, this.clientOptions),
    );
    return call(async () => {
      const found: Subscription[] = [];
      for await (const s of client.subscriptions.list()) {
        found.push({
          id: s.id ?? `/subscriptions/${s.subscriptionId ?? ''}`,
          subscriptionId: s.subscriptionId ?? '',
          ...(s.tenantId ? { tenantId: s.tenantId } : {}),
          displayName: s.displayName ?? '',
          state: s.state ?? '',
        });
      }
      return found;
    });
  }

  /** The subscription with this display name (case-insensitive), or undefined. */
  async findSubscriptionByName(displayName: string): Promise<Subscription | undefined> {
    const all = await this.listSubscriptions();
    return all.find((s) => s.displayName.toLowerCase() === displayName.toLowerCase());
  }

  /**
   * RoleAssignments_Create under a new GUID (spec 2 §7). ARM's 409 RoleAssignmentExists (the same
   * principal, role and scope under another name) is answered `alreadyExists`, not thrown.
   */
  async createRoleAssignment(input: CreateRoleAssignment): Promise<RoleAssignmentOutcome> {
    const name = input.name ?? globalThis.crypto.randomUUID();
    const subscriptionId = /^\/subscriptions\/([^/]+)/i.exec(input.scope)?.[1] ?? '';
    const client = withAegisAuthentication(
      new AuthorizationManagementClient(this.credential, subscriptionId, this.clientOptions),
    );
    let status = 0;
    try {
      const created = await call(() =>
        client.roleAssignments.create(
          trimSlash(input.scope),
          name,
          {
            roleDefinitionId: `${input.scope}/providers/Microsoft.Authorization/roleDefinitions/${input.roleDefinitionGuid}`,
            principalId: input.principalId,
            principalType: input.principalType,
            ...(input.description ? { description: input.description } : {}),
          },
          { onResponse: (response) => void (status = response.status) },
        ),
      );
      const assignment: RoleAssignment = {
        id: created.id ?? '',
        name: created.name ?? name,
        roleDefinitionId: created.roleDefinitionId ?? '',
        principalId: created.principalId ?? input.principalId,
        scope: created.scope ?? input.scope,
      };
      return { status: status === 201 ? 'created' : 'updated', assignment };
    } catch (error) {
      if (
        error instanceof ServiceError &&
        error.statusCode === 409 &&
        error.code === 'RoleAssignmentExists'
      ) {
        return { status: 'alreadyExists' };
      }
      throw error;
    }
  }

  // ----- resources of a subscription (the ARM workloads) -----

  /**
   * The ids of the policy assignments of a subscription (PolicyAssignments_List with `$filter`,
   * e.g. atExactScope()) at the workload's api-version.
   */
  async listPolicyAssignmentIds(
    subscriptionId: string,
    options: { apiVersion: string; filter?: string },
  ): Promise<string[]> {
    const client = withAegisAuthentication(
      new PolicyClient(this.credential, subscriptionId, {
        ...this.clientOptions,
        apiVersion: options.apiVersion,
      }),
    );
    return call(async () => {
      const ids: string[] = [];
      const list = client.policyAssignments.list(options.filter ? { filter: options.filter } : {});
      for await (const assignment of list) if (assignment.id) ids.push(assignment.id);
      return ids;
    });
  }

  /** The ids of a subscription's resources of one type (Resources_List, `resourceType eq`). */
  async listResourceIds(subscriptionId: string, resourceType: string): Promise<string[]> {
    const client = this.resources(subscriptionId);
    return call(async () => {
      const ids: string[] = [];
      const filter = `resourceType eq '${resourceType.replace(/'/g, "''")}'`;
      for await (const resource of client.resources.list({ filter })) {
        if (resource.id) ids.push(resource.id);
      }
      return ids;
    });
  }

  /** GET of a resource by id, as ARM writes it (the answer's own JSON, not the SDK's model). */
  async getResource(id: string, apiVersion: string): Promise<ArmResource> {
    let wire: ArmResource | undefined;
    const model = await call(() =>
      this.resources(subscriptionOf(id)).resources.getById(trimSlash(id), apiVersion, {
        onResponse: (response) => {
          wire = JSON.parse(response.bodyAsText ?? 'null') as ArmResource | undefined;
        },
      }),
    );
    return wire ?? asJson(model);
  }

  /** PUT of a resource by id (long-running when ARM says so: polled to the end). */
  async putResource(id: string, apiVersion: string, body: ArmResource): Promise<ArmResource> {
    const { id: _id, name: _name, type: _type, ...writable } = body;
    return asJson(
      await call(() =>
        this.resources(subscriptionOf(id)).resources.createOrUpdateById(
          trimSlash(id),
          apiVersion,
          writable,
        ),
      ),
    );
  }

  /** DELETE of a resource by id; one already gone is success (ARM answers 204). */
  async deleteResource(id: string, apiVersion: string): Promise<void> {
    await call(() =>
      this.resources(subscriptionOf(id)).resources.deleteById(trimSlash(id), apiVersion),
    );
  }

  /** ResourceGroups_Get; undefined when ARM answers 404. */
  async findResourceGroup(subscriptionId: string, name: string): Promise<ArmResource | undefined> {
    try {
      return asJson(await call(() => this.resources(subscriptionId).resourceGroups.get(name)));
    } catch (error) {
      if (error instanceof ServiceError && error.statusCode === 404) return undefined;
      throw error;
    }
  }

  /** ResourceGroups_CreateOrUpdate. */
  async putResourceGroup(subscriptionId: string, name: string, location: string) {
    return asJson(
      await call(() =>
        this.resources(subscriptionId).resourceGroups.createOrUpdate(name, { location }),
      ),
    );
  }
}

/** The SDK's `/{+resourceId}` template adds the leading slash itself. */
function trimSlash(id: string): string {
  return id.replace(/^\/+/, '');
}

function subscriptionOf(id: string): string {
  const found = /^\/?subscriptions\/([^/]+)/i.exec(id)?.[1];
  if (!found) throw new TypeError(`'${id}' is not a resource id inside a subscription`);
  return found;
}
