// TenantGateway over HTTP: Microsoft Graph through the Graph connector (beta; reads in $batch of 20
// with @odata.nextLink pages batched again, throttled sub-requests retried after their
// Retry-After), the admin command endpoint the Exchange Online module uses (POST
// adminapi/beta/{tenantId}/InvokeCommand with CmdletInput; the same shape for Teams, SharePoint and
// Planner settings) and Azure Resource Manager through the ARM connector.
import { HttpPipeline, isServiceError, type RetryOptions } from '@aegis/connectors';
import { ArmClient } from '@aegis/connectors/arm';
import { GraphClient, type GraphBatchRequest } from '@aegis/connectors/graph';
import type {
  AdminCommandWorkload,
  ArmWorkload,
  GraphWorkload,
  TenantWorkload,
} from '@aegis/domain';

import { TaskError } from '../log';

import {
  objectIdOf,
  type TenantGateway,
  type TenantObject,
  type WriteOptions,
  type WriteOutcome,
} from './gateway';

export interface HttpTenantGatewayOptions {
  tenantId: string;
  /** https://graph.microsoft.com or the tenant emulator's origin */
  graphUrl: string;
  /** admin command endpoint base (https://outlook.office365.com), or one per service */
  adminUrl: string | Partial<Record<AdminCommandWorkload['service'], string>>;
  armUrl: string;
  subscriptionId?: string;
  /** an app-only token of the client tenant for the resource */
  getToken: (resource: 'graph' | 'admin' | 'arm') => Promise<string>;
  retry?: RetryOptions;
  fetch?: typeof fetch;
  /** waits before retrying a throttled request (default: real time; tests make it instant) */
  sleep?: (ms: number) => Promise<void>;
}

const APPROVAL_HEADER = 'x-msft-approval-justification';
const MAX_PAGE_ROUNDS = 500;

function errorText(body: unknown): string {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return [error?.code, error?.message].filter((v) => typeof v === 'string').join(': ');
}

export class HttpTenantGateway implements TenantGateway {
  private requests = 0;
  private readonly graph: GraphClient;
  private readonly arm: ArmClient;
  private readonly admin: HttpPipeline;

  constructor(private readonly options: HttpTenantGatewayOptions) {
    const counting: typeof fetch = (input, init) => {
      this.requests += 1;
      return (options.fetch ?? fetch)(input, init);
    };
    const retry: RetryOptions | undefined =
      options.retry || options.sleep
        ? { ...options.retry, ...(options.sleep ? { sleep: options.sleep } : {}) }
        : undefined;
    const shared = { fetch: counting, ...(retry ? { retry } : {}) };
    this.graph = new GraphClient({
      baseUrl: options.graphUrl,
      version: 'beta',
      getToken: () => options.getToken('graph'),
      ...shared,
    });
    this.arm = new ArmClient({
      baseUrl: options.armUrl,
      getToken: () => options.getToken('arm'),
      ...shared,
    });
    this.admin = new HttpPipeline({
      service: 'graph',
      getToken: () => options.getToken('admin'),
      ...shared,
      parseError: (_status, text) => {
        try {
          const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
          return {
            ...(body.error?.code ? { code: body.error.code } : {}),
            ...(body.error?.message ? { message: body.error.message } : {}),
          };
        } catch {
          return {};
        }
      },
    });
  }

  get requestCount(): number {
    return this.requests;
  }

  async readAll(
    workloads: readonly TenantWorkload[],
  ): Promise<Map<TenantWorkload, TenantObject[]>> {
    const result = new Map<TenantWorkload, TenantObject[]>(workloads.map((w) => [w, []]));
    const graphWorkloads = workloads.filter((w): w is GraphWorkload => w.transport === 'graph');
    await Promise.all([
      this.readGraph(graphWorkloads, result),
      ...workloads
        .filter((w) => w.transport !== 'graph')
        .map(async (w) => result.set(w, await this.readOther(w))),
    ]);
    return result;
  }

  // ---- Graph ------------------------------------------------------------------------------

  /** Collections and singletons in $batches; the nextLinks of one round form the next round. */
  private async readGraph(
    workloads: readonly GraphWorkload[],
    result: Map<TenantWorkload, TenantObject[]>,
  ): Promise<void> {
    const versionBase = this.graph.url('/').replace(/\/$/, '');
    let pending = workloads.map((workload) => ({ workload, url: workload.path }));
    for (let round = 0; pending.length > 0; round += 1) {
      if (round > MAX_PAGE_ROUNDS) throw new TaskError('Graph paging did not end');
      const requests: GraphBatchRequest[] = pending.map((item, index) => ({
        id: String(index + 1),
        method: 'GET',
        url: item.url,
      }));
      const responses = await this.graph.batch<TenantObject>(requests).catch((error: unknown) => {
        // the $batch itself failed (after the retries of throttled answers): say what and why
        const status = isServiceError(error) && error.statusCode ? `${error.statusCode} ` : '';
        throw new TaskError(
          `Reading the tenant through Graph ($batch of ${requests.length} requests) failed: ${status}${(error as Error).message}`,
        );
      });
      const next: typeof pending = [];
      pending.forEach((item, index) => {
        const response = responses[index];
        const what = `${item.workload.category}/${item.workload.kind}`;
        if (!response || response.status < 200 || response.status >= 300) {
          const detail = response ? `${response.status} ${errorText(response.body)}` : 'nothing';
          throw new TaskError(`Reading ${what} (${item.url}) failed: Graph answered ${detail}`);
        }
        const body = response.body ?? {};
        const list = result.get(item.workload) ?? [];
        if (item.workload.singleton) {
          list.push(body);
        } else {
          const value = body['value'];
          if (Array.isArray(value)) list.push(...(value as TenantObject[]));
          const nextLink = body['@odata.nextLink'];
          if (typeof nextLink === 'string') {
            const relative = nextLink.startsWith(versionBase)
              ? nextLink.slice(versionBase.length)
              : nextLink;
            next.push({ workload: item.workload, url: relative });
          }
        }
        result.set(item.workload, list);
      });
      pending = next;
    }
  }

  private async graphWrite(
    method: 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body: TenantObject | undefined,
    workload: GraphWorkload,
    options: WriteOptions | undefined,
  ): Promise<WriteOutcome> {
    const response = await this.graph.send<TenantObject | undefined>(method, path, {
      ...(body ? { body } : {}),
      ...(workload.intune && options?.justification
        ? { headers: { [APPROVAL_HEADER]: options.justification } }
        : {}),
    });
    return this.outcome(response.status, response.body);
  }

  // ---- admin commands and ARM ---------------------------------------------------------------

  private adminBase(service: AdminCommandWorkload['service']): string {
    const configured = this.options.adminUrl;
    const base =
      typeof configured === 'string' ? configured : (configured[service] ?? configured.exchange);
    if (!base) throw new TaskError(`No admin endpoint is configured for ${service}`);
    return base.replace(/\/+$/, '');
  }

  private async invoke(
    workload: AdminCommandWorkload,
    cmdlet: string,
    parameters: TenantObject,
  ): Promise<{ status: number; body: TenantObject | undefined }> {
    const response = await this.admin.send<TenantObject | undefined>({
      method: 'POST',
      url: `${this.adminBase(workload.service)}/adminapi/beta/${encodeURIComponent(this.options.tenantId)}/InvokeCommand`,
      body: { CmdletInput: { CmdletName: cmdlet, Parameters: parameters } },
      headers: { accept: 'application/json' },
      responseType: 'json',
    });
    return { status: response.status, body: response.body };
  }

  private armCollection(workload: ArmWorkload): string {
    if (!this.options.subscriptionId) {
      throw new TaskError(`No subscription is known for ${workload.category}/${workload.kind}`);
    }
    return `/subscriptions/${this.options.subscriptionId}/providers/${workload.resourceType}`;
  }

  private async readOther(workload: TenantWorkload): Promise<TenantObject[]> {
    const what = `${workload.category}/${workload.kind}`;
    try {
      if (workload.transport === 'adminCommand') {
        const { body } = await this.invoke(workload, `Get-${workload.noun}`, {});
        const value = body?.['value'];
        return Array.isArray(value) ? (value as TenantObject[]) : body ? [body] : [];
      }
      if (workload.transport === 'arm') {
        // A tenant without a subscription has no Azure resources to read.
        if (!this.options.subscriptionId) return [];
        return await this.arm.list<TenantObject>(this.armCollection(workload), {
          apiVersion: workload.apiVersion,
        });
      }
      return [];
    } catch (error) {
      if (error instanceof TaskError) throw error;
      throw new TaskError(`Reading ${what} failed: ${(error as Error).message}`);
    }
  }

  private outcome(status: number, body: TenantObject | undefined): WriteOutcome {
    if (status === 202) {
      const message =
        typeof body?.['message'] === 'string'
          ? String(body['message'])
          : 'the change waits for a second administrator to approve it (Multi Admin Approval)';
      return { status: 'pendingApproval', message };
    }
    return { status: 'done', ...(body && typeof body === 'object' ? { object: body } : {}) };
  }

  async create(
    workload: TenantWorkload,
    body: TenantObject,
    options?: WriteOptions,
  ): Promise<WriteOutcome> {
    if (workload.transport === 'graph') {
      return workload.singleton
        ? this.graphWrite('PATCH', workload.path, body, workload, options)
        : this.graphWrite('POST', workload.path, body, workload, options);
    }
    if (workload.transport === 'adminCommand') {
      const { status, body: answer } = await this.invoke(
        workload,
        `${workload.singleton ? 'Set' : 'New'}-${workload.noun}`,
        body,
      );
      return this.outcome(status, answer);
    }
    const name = String(body['name'] ?? '');
    const object = await this.arm.put<TenantObject>(
      `${this.armCollection(workload)}/${encodeURIComponent(name)}`,
      body,
      { apiVersion: workload.apiVersion },
    );
    return { status: 'done', object };
  }

  async update(
    workload: TenantWorkload,
    existing: TenantObject,
    body: TenantObject,
    options?: WriteOptions,
  ): Promise<WriteOutcome> {
    if (workload.transport === 'graph') {
      const id = objectIdOf(workload, existing);
      const path =
        workload.singleton || !id ? workload.path : `${workload.path}/${encodeURIComponent(id)}`;
      return this.graphWrite('PATCH', path, body, workload, options);
    }
    if (workload.transport === 'adminCommand') {
      const identity = existing['Identity'] ?? existing['Name'];
      const { status, body: answer } = await this.invoke(workload, `Set-${workload.noun}`, {
        ...body,
        ...(workload.singleton || identity === undefined ? {} : { Identity: identity }),
      });
      return this.outcome(status, answer);
    }
    return this.create(workload, { ...body, name: existing['name'] ?? body['name'] }, options);
  }

  async remove(
    workload: TenantWorkload,
    existing: TenantObject,
    options?: WriteOptions,
  ): Promise<WriteOutcome> {
    if (workload.transport === 'graph') {
      const id = objectIdOf(workload, existing);
      if (!id) throw new TaskError(`${workload.category}/${workload.kind} object has no id`);
      return this.graphWrite(
        'DELETE',
        `${workload.path}/${encodeURIComponent(id)}`,
        undefined,
        workload,
        options,
      );
    }
    if (workload.transport === 'adminCommand') {
      const identity = existing['Identity'] ?? existing['Name'] ?? '';
      const { status, body } = await this.invoke(workload, `Remove-${workload.noun}`, {
        Identity: identity,
        Confirm: false,
      });
      return this.outcome(status, body);
    }
    await this.arm.delete(String(existing['id'] ?? ''), { apiVersion: workload.apiVersion });
    return { status: 'done' };
  }

  async initialDomain(): Promise<string | undefined> {
    const domains = await this.graph.list<{ id?: string; isInitial?: boolean }>('/domains');
    return domains.find((d) => d.isInitial)?.id;
  }
}
