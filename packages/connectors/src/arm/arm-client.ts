// A thin typed Azure Resource Manager client on the shared HTTP pipeline
// (docs/adr/017-graph-arm-connectors.md): the api-version chosen per resource provider, lists
// followed by `nextLink`, long-running operations polled through Azure-AsyncOperation or Location
// (honouring Retry-After), and ServiceErrors keeping ARM's code, message and request id.
import {
  HttpPipeline,
  ServiceError,
  abortableSleep,
  isServiceError,
  parseRetryAfter,
  type RetryOptions,
} from '../shared';

export const ARM_BASE_URL = 'https://management.azure.com';
export const ARM_SCOPE = 'https://management.azure.com/.default';

/** The api-version used for each resource type (lower-case keys), from azure-rest-api-specs. */
export const ARM_API_VERSIONS: Readonly<Record<string, string>> = {
  'microsoft.resources/subscriptions': '2022-12-01',
  'microsoft.resources/resourcegroups': '2021-04-01',
  'microsoft.resources/operationresults': '2021-04-01',
  'microsoft.authorization/roleassignments': '2022-04-01',
  'microsoft.authorization/roledefinitions': '2022-04-01',
  'microsoft.authorization/policyassignments': '2023-04-01',
  'microsoft.authorization/policydefinitions': '2023-04-01',
  'microsoft.subscription/aliases': '2021-10-01',
  'microsoft.subscription/operations': '2021-10-01',
  'microsoft.maintenance/maintenanceconfigurations': '2023-04-01',
};

/** Built-in Azure role definition GUIDs, the same in every subscription (reference §2.3). */
export const AZURE_ROLE_IDS = {
  reader: 'acdd72a7-3385-48ef-bd42-f606fba81ae7',
  contributor: 'b24988ac-6180-42a0-ab88-20f7382dd24c',
  resourcePolicyContributor: '36243c78-bf99-498c-9df9-86d9f8d28608',
  owner: '8e3af657-a8ff-443c-a75c-2fe8c4bcb635',
  userAccessAdministrator: '18d7d88d-d35e-4fb5-a5c3-7773c20a72d9',
} as const;

/**
 * The resource type a path addresses, e.g. `/subscriptions/x/providers/Microsoft.Authorization/
 * roleAssignments/y` → `microsoft.authorization/roleassignments`.
 */
export function resourceTypeOf(path: string): string {
  const segments = path.split('?')[0]!.split('/').filter(Boolean);
  const providerAt = segments.map((s) => s.toLowerCase()).lastIndexOf('providers');
  if (providerAt >= 0 && segments.length > providerAt + 2) {
    return `${segments[providerAt + 1]}/${segments[providerAt + 2]}`.toLowerCase();
  }
  const lower = segments.map((s) => s.toLowerCase());
  if (lower[2] === 'resourcegroups') return 'microsoft.resources/resourcegroups';
  if (lower[2] === 'operationresults') return 'microsoft.resources/operationresults';
  return 'microsoft.resources/subscriptions';
}

export interface ArmClientOptions {
  baseUrl?: string;
  getToken: () => Promise<string>;
  /** overrides of ARM_API_VERSIONS (lower-case resource type → api-version) */
  apiVersions?: Readonly<Record<string, string>>;
  retry?: RetryOptions;
  fetch?: typeof fetch;
  /** wait between polls of a long-running operation without Retry-After (default 5 s) */
  pollIntervalInMs?: number;
  /** give up polling after this long (default 30 min) */
  pollTimeoutInMs?: number;
  /** injectable for tests */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface ArmRequestOptions {
  apiVersion?: string;
  query?: Record<string, string | undefined>;
  abortSignal?: AbortSignal;
}

export interface ArmList<T> {
  value: T[];
  nextLink?: string | null;
}

export interface Subscription {
  id: string;
  subscriptionId: string;
  tenantId?: string;
  displayName: string;
  state: string;
}

export interface RoleAssignment {
  id: string;
  name: string;
  type: string;
  properties: {
    roleDefinitionId: string;
    principalId: string;
    principalType?: string;
    scope: string;
    description?: string | null;
  };
}

export interface RoleDefinition {
  id: string;
  name: string;
  properties: { roleName: string; type: string; description?: string };
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

export type RoleAssignmentOutcome =
  | { status: 'created'; assignment: RoleAssignment }
  | { status: 'updated'; assignment: RoleAssignment }
  /** the same principal, role and scope were already assigned (409 RoleAssignmentExists) */
  | { status: 'alreadyExists' };

interface ArmErrorBody {
  error?: { code?: string; message?: string };
}

export function parseArmError(status: number, text: string): { code?: string; message?: string } {
  try {
    const parsed = JSON.parse(text) as ArmErrorBody;
    if (parsed.error && typeof parsed.error === 'object') {
      return {
        ...(typeof parsed.error.code === 'string' ? { code: parsed.error.code } : {}),
        ...(typeof parsed.error.message === 'string' ? { message: parsed.error.message } : {}),
      };
    }
  } catch {
    // not JSON
  }
  return status === 401 ? { code: 'AuthenticationFailed' } : {};
}

const TERMINAL = ['succeeded', 'failed', 'canceled', 'cancelled'];

export class ArmClient {
  readonly baseUrl: string;
  private readonly http: HttpPipeline;
  private readonly apiVersions: Readonly<Record<string, string>>;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: ArmClientOptions) {
    this.baseUrl = (options.baseUrl ?? ARM_BASE_URL).replace(/\/+$/, '');
    this.apiVersions = { ...ARM_API_VERSIONS, ...options.apiVersions };
    this.sleep = options.sleep ?? abortableSleep;
    this.http = new HttpPipeline({
      service: 'arm',
      getToken: options.getToken,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      parseError: parseArmError,
      requestIdHeaders: ['x-ms-request-id', 'x-ms-correlation-request-id'],
    });
  }

  apiVersionFor(path: string): string {
    const type = resourceTypeOf(path);
    const version = this.apiVersions[type];
    if (!version) throw new Error(`No api-version configured for ARM resource type ${type}`);
    return version;
  }

  private async send<T>(
    method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: ArmRequestOptions & { body?: unknown } = {},
  ) {
    return this.http.send<T>({
      method,
      url: `${this.baseUrl}${path}`,
      query: { 'api-version': options.apiVersion ?? this.apiVersionFor(path), ...options.query },
      ...(options.body !== undefined ? { body: options.body } : {}),
      responseType: 'json',
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
  }

  async get<T>(path: string, options?: ArmRequestOptions): Promise<T> {
    return (await this.send<T>('GET', path, options)).body;
  }

  async find<T>(path: string, options?: ArmRequestOptions): Promise<T | undefined> {
    try {
      return await this.get<T>(path, options);
    } catch (error) {
      if (isServiceError(error) && error.statusCode === 404) return undefined;
      throw error;
    }
  }

  /** Every item of a list, following `nextLink` (absent or null on the last page). */
  async list<T>(path: string, options?: ArmRequestOptions): Promise<T[]> {
    const items: T[] = [];
    let page = await this.get<ArmList<T>>(path, options);
    for (;;) {
      items.push(...(page.value ?? []));
      if (!page.nextLink) return items;
      const response = await this.http.send<ArmList<T>>({
        method: 'GET',
        url: page.nextLink,
        responseType: 'json',
        ...(options?.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      page = response.body;
    }
  }

  async put<T>(path: string, body: unknown, options?: ArmRequestOptions): Promise<T> {
    return (await this.send<T>('PUT', path, { ...options, body })).body;
  }

  async delete(path: string, options?: ArmRequestOptions): Promise<void> {
    await this.send<unknown>('DELETE', path, options);
  }

  /**
   * A request that may be long-running: when ARM answers 201/202 with `Azure-AsyncOperation` or
   * `Location`, polls it (Retry-After or the poll interval between polls) until a terminal state,
   * then answers the final resource (GET of `path` for PUT/PATCH, the Location result otherwise).
   * A `Failed`/`Canceled` operation throws a ServiceError with the operation's error.
   */
  async sendAndWait<T>(
    method: 'PUT' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    options: ArmRequestOptions = {},
  ): Promise<T | undefined> {
    const first = await this.send<T>(method, path, {
      ...options,
      ...(body !== undefined ? { body } : {}),
    });
    const asyncOperation = first.headers.get('azure-asyncoperation');
    const location = first.headers.get('location');
    if (first.status !== 201 && first.status !== 202) return first.body;
    if (!asyncOperation && !location) return first.body;
    const deadline = Date.now() + (this.options.pollTimeoutInMs ?? 30 * 60_000);
    let retryAfter = first.headers.get('retry-after');
    const wait = async () => {
      if (Date.now() > deadline) {
        throw new ServiceError(`ARM operation on ${path} did not finish in time`, {
          service: 'arm',
          statusCode: 504,
          code: 'OperationTimedOut',
        });
      }
      await this.sleep(
        parseRetryAfter(retryAfter) ?? this.options.pollIntervalInMs ?? 5000,
        options.abortSignal,
      );
    };
    if (asyncOperation) {
      for (;;) {
        await wait();
        const poll = await this.http.send<{
          status?: string;
          error?: { code?: string; message?: string };
        }>({
          method: 'GET',
          url: asyncOperation,
          responseType: 'json',
          ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
        });
        retryAfter = poll.headers.get('retry-after');
        const status = (poll.body?.status ?? '').toLowerCase();
        if (!TERMINAL.includes(status)) continue;
        if (status !== 'succeeded') {
          throw new ServiceError(
            poll.body?.error?.message ?? `ARM operation on ${path} ended ${poll.body?.status}`,
            {
              service: 'arm',
              code: poll.body?.error?.code ?? `Operation${poll.body?.status ?? 'Failed'}`,
              ...(this.http.requestIdOf(poll.headers)
                ? { requestId: this.http.requestIdOf(poll.headers) as string }
                : {}),
            },
          );
        }
        if (method === 'DELETE' || method === 'POST') {
          return location ? await this.pollLocation<T>(location, wait, options) : undefined;
        }
        return this.get<T>(path, options);
      }
    }
    return this.pollLocation<T>(location as string, wait, options);
  }

  private async pollLocation<T>(
    location: string,
    wait: () => Promise<void>,
    options: ArmRequestOptions,
  ): Promise<T | undefined> {
    for (;;) {
      await wait();
      const poll = await this.http.send<T>({
        method: 'GET',
        url: location,
        responseType: 'json',
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      if (poll.status === 202) continue;
      return poll.body;
    }
  }

  // ----- typed calls -----

  listSubscriptions(): Promise<Subscription[]> {
    return this.list<Subscription>('/subscriptions');
  }

  /** The subscription with this display name (case-insensitive), or undefined. */
  async findSubscriptionByName(displayName: string): Promise<Subscription | undefined> {
    const all = await this.listSubscriptions();
    return all.find((s) => s.displayName.toLowerCase() === displayName.toLowerCase());
  }

  listRoleDefinitions(scope: string, roleName?: string): Promise<RoleDefinition[]> {
    return this.list<RoleDefinition>(
      `${scope}/providers/Microsoft.Authorization/roleDefinitions`,
      roleName ? { query: { $filter: `roleName eq '${roleName.replace(/'/g, "''")}'` } } : {},
    );
  }

  listRoleAssignments(scope: string, principalId?: string): Promise<RoleAssignment[]> {
    return this.list<RoleAssignment>(
      `${scope}/providers/Microsoft.Authorization/roleAssignments`,
      principalId ? { query: { $filter: `principalId eq '${principalId}'` } } : {},
    );
  }

  /**
   * PUT a role assignment under a new GUID (spec 2 §7). ARM's 409 RoleAssignmentExists (the same
   * principal, role and scope under another name) is answered `alreadyExists`, not thrown.
   */
  async createRoleAssignment(input: CreateRoleAssignment): Promise<RoleAssignmentOutcome> {
    const name = input.name ?? globalThis.crypto.randomUUID();
    try {
      const response = await this.send<RoleAssignment>(
        'PUT',
        `${input.scope}/providers/Microsoft.Authorization/roleAssignments/${name}`,
        {
          body: {
            properties: {
              roleDefinitionId: `${input.scope}/providers/Microsoft.Authorization/roleDefinitions/${input.roleDefinitionGuid}`,
              principalId: input.principalId,
              principalType: input.principalType,
              ...(input.description ? { description: input.description } : {}),
            },
          },
        },
      );
      return {
        status: response.status === 201 ? 'created' : 'updated',
        assignment: response.body,
      };
    } catch (error) {
      if (
        isServiceError(error) &&
        error.statusCode === 409 &&
        error.code === 'RoleAssignmentExists'
      ) {
        return { status: 'alreadyExists' };
      }
      throw error;
    }
  }
}
