// TenantGateway over HTTP: Microsoft Graph (beta; reads in $batch of 20 with @odata.nextLink
// paging, throttled sub-requests retried after their Retry-After), the admin command endpoint the
// Exchange Online module uses (POST adminapi/beta/{tenantId}/InvokeCommand with CmdletInput; the
// same shape for Teams, SharePoint and Planner settings) and Azure Resource Manager.
import { HttpPipeline, parseRetryAfter, type RetryOptions } from '@aegis/connectors';
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
  graphUrl: string;
  /** admin command endpoint base per service (default: Exchange's for all) */
  adminUrl: string | Partial<Record<AdminCommandWorkload['service'], string>>;
  armUrl: string;
  subscriptionId?: string;
  /** a token for the resource (https://graph.microsoft.com, https://outlook.office365.com, …) */
  getToken: (resource: 'graph' | 'admin' | 'arm') => Promise<string>;
  retry?: RetryOptions;
  fetch?: typeof fetch;
  /** waits between throttled $batch sub-requests (tests make it instant) */
  sleep?: (ms: number) => Promise<void>;
}

const BATCH_SIZE = 20;
const MAX_BATCH_ROUNDS = 200;
const APPROVAL_HEADER = 'x-msft-approval-justification';

interface BatchRequest {
  id: string;
  method: 'GET';
  url: string;
}
interface BatchResponse {
  id: string;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

function parseGraphError(status: number, text: string): { code?: string; message?: string } {
  try {
    const parsed = JSON.parse(text) as { error?: { code?: string; message?: string } };
    return {
      ...(parsed.error?.code ? { code: parsed.error.code } : {}),
      ...(parsed.error?.message ? { message: parsed.error.message } : {}),
    };
  } catch {
    return status === 401 ? { code: 'Unauthorized' } : {};
  }
}

function errorMessageOf(body: unknown): string | undefined {
  const error = (body as { error?: { message?: unknown; code?: unknown } } | undefined)?.error;
  if (!error) return undefined;
  return [error.code, error.message].filter((v) => typeof v === 'string').join(': ');
}

export class HttpTenantGateway implements TenantGateway {
  private requests = 0;
  private readonly graph: HttpPipeline;
  private readonly admin: HttpPipeline;
  private readonly arm: HttpPipeline;
  private readonly graphBase: string;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: HttpTenantGatewayOptions) {
    const counting: typeof fetch = (input, init) => {
      this.requests += 1;
      return (options.fetch ?? fetch)(input, init);
    };
    const pipeline = (service: 'graph' | 'arm', resource: 'graph' | 'admin' | 'arm') =>
      new HttpPipeline({
        service,
        getToken: () => options.getToken(resource),
        fetch: counting,
        parseError: parseGraphError,
        requestIdHeaders: ['request-id', 'x-ms-request-id', 'client-request-id'],
        ...(options.retry ? { retry: options.retry } : {}),
      });
    this.graph = pipeline('graph', 'graph');
    this.admin = pipeline('graph', 'admin');
    this.arm = pipeline('arm', 'arm');
    this.graphBase = `${options.graphUrl.replace(/\/+$/, '')}/beta`;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  get requestCount(): number {
    return this.requests;
  }

  async readAll(
    workloads: readonly TenantWorkload[],
  ): Promise<Map<TenantWorkload, TenantObject[]>> {
    const result = new Map<TenantWorkload, TenantObject[]>();
    for (const w of workloads) result.set(w, []);
    const graphWorkloads = workloads.filter((w): w is GraphWorkload => w.transport === 'graph');
    const others = workloads.filter((w) => w.transport !== 'graph');
    await Promise.all([
      this.readGraph(graphWorkloads, result),
      ...others.map(async (w) => result.set(w, await this.readOther(w))),
    ]);
    return result;
  }

  // ---- Graph ------------------------------------------------------------------------------

  private relative(url: string): string {
    return url.startsWith(this.graphBase) ? url.slice(this.graphBase.length) : url;
  }

  /** Reads collections and singletons through $batch, following nextLinks in further batches. */
  private async readGraph(
    workloads: readonly GraphWorkload[],
    result: Map<TenantWorkload, TenantObject[]>,
  ): Promise<void> {
    let pending: { workload: GraphWorkload; url: string }[] = workloads.map((workload) => ({
      workload,
      url: workload.path,
    }));
    for (let round = 0; pending.length > 0; round += 1) {
      if (round > MAX_BATCH_ROUNDS) throw new TaskError('Graph paging did not end');
      const next: typeof pending = [];
      const throttled: typeof pending = [];
      let wait = 0;
      for (let start = 0; start < pending.length; start += BATCH_SIZE) {
        const chunk = pending.slice(start, start + BATCH_SIZE);
        const requests: BatchRequest[] = chunk.map((item, index) => ({
          id: String(index + 1),
          method: 'GET',
          url: item.url,
        }));
        const response = await this.graph.send<{ responses?: BatchResponse[] }>({
          method: 'POST',
          url: `${this.graphBase}/$batch`,
          body: { requests },
          headers: { accept: 'application/json' },
          responseType: 'json',
        });
        const answers = new Map((response.body?.responses ?? []).map((r) => [r.id, r]));
        chunk.forEach((item, index) => {
          const answer = answers.get(String(index + 1));
          if (!answer) throw new TaskError(`Graph $batch gave no answer for ${item.url}`);
          if (answer.status === 429 || answer.status === 503) {
            const after = parseRetryAfter(
              answer.headers?.['Retry-After'] ?? answer.headers?.['retry-after'],
            );
            wait = Math.max(wait, after ?? 1000);
            throttled.push(item);
            return;
          }
          if (answer.status < 200 || answer.status >= 300) {
            throw new TaskError(
              `Reading ${item.workload.category}/${item.workload.kind} (${item.url}) failed: Graph answered ${answer.status}${
                errorMessageOf(answer.body) ? ` ${errorMessageOf(answer.body)}` : ''
              }`,
            );
          }
          const body = (answer.body ?? {}) as TenantObject;
          const list = result.get(item.workload) ?? [];
          if (item.workload.singleton) {
            list.push(body);
          } else {
            const value = body['value'];
            if (Array.isArray(value)) list.push(...(value as TenantObject[]));
            const nextLink = body['@odata.nextLink'];
            if (typeof nextLink === 'string')
              next.push({ workload: item.workload, url: this.relative(nextLink) });
          }
          result.set(item.workload, list);
        });
      }
      if (throttled.length > 0) await this.sleep(Math.min(wait, 60_000));
      pending = [...throttled, ...next];
    }
  }

  private graphWrite(
    method: 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body: TenantObject | undefined,
    workload: GraphWorkload,
    options: WriteOptions | undefined,
  ): Promise<WriteOutcome> {
    return this.write(async () => {
      const response = await this.graph.send<TenantObject | undefined>({
        method,
        url: `${this.graphBase}${path}`,
        ...(body ? { body } : {}),
        headers: {
          accept: 'application/json',
          ...(workload.intune && options?.justification
            ? { [APPROVAL_HEADER]: options.justification }
            : {}),
        },
        responseType: method === 'DELETE' ? 'none' : 'json',
      });
      return response;
    });
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
    const url = `${this.adminBase(workload.service)}/adminapi/beta/${encodeURIComponent(this.options.tenantId)}/InvokeCommand`;
    const response = await this.admin.send<TenantObject | undefined>({
      method: 'POST',
      url,
      body: { CmdletInput: { CmdletName: cmdlet, Parameters: parameters } },
      headers: { accept: 'application/json' },
      responseType: 'json',
    });
    return { status: response.status, body: response.body };
  }

  private armCollectionUrl(workload: ArmWorkload): string {
    if (!this.options.subscriptionId) {
      throw new TaskError(`No subscription is known for ${workload.category}/${workload.kind}`);
    }
    return `${this.options.armUrl.replace(/\/+$/, '')}/subscriptions/${this.options.subscriptionId}/providers/${workload.resourceType}`;
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
        const items: TenantObject[] = [];
        let url: string | undefined =
          `${this.armCollectionUrl(workload)}?api-version=${workload.apiVersion}`;
        while (url) {
          const page: { body: { value?: TenantObject[]; nextLink?: string | null } } =
            await this.arm.send({ method: 'GET', url, responseType: 'json' });
          items.push(...(page.body.value ?? []));
          url = page.body.nextLink ?? undefined;
        }
        return items;
      }
      return [];
    } catch (error) {
      if (error instanceof TaskError) throw error;
      throw new TaskError(`Reading ${what} failed: ${(error as Error).message}`);
    }
  }

  private async write(
    operation: () => Promise<{ status: number; body: TenantObject | undefined }>,
  ): Promise<WriteOutcome> {
    const response = await operation();
    if (response.status === 202) {
      const message =
        typeof response.body?.['message'] === 'string'
          ? String(response.body['message'])
          : 'the change waits for a second administrator to approve it (Multi Admin Approval)';
      return { status: 'pendingApproval', message };
    }
    return { status: 'done', ...(response.body ? { object: response.body } : {}) };
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
      const verb = workload.singleton ? 'Set' : 'New';
      return this.write(() => this.invoke(workload, `${verb}-${workload.noun}`, body));
    }
    const name = String(body['name'] ?? '');
    return this.write(() =>
      this.arm.send({
        method: 'PUT',
        url: `${this.armCollectionUrl(workload)}/${encodeURIComponent(name)}?api-version=${workload.apiVersion}`,
        body,
        responseType: 'json',
      }),
    );
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
      return this.write(() =>
        this.invoke(workload, `Set-${workload.noun}`, {
          ...body,
          ...(workload.singleton || identity === undefined ? {} : { Identity: identity }),
        }),
      );
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
      if (!id)
        throw new TaskError(`${workload.category}/${workload.kind} object has no id to remove`);
      return this.graphWrite(
        'DELETE',
        `${workload.path}/${encodeURIComponent(id)}`,
        undefined,
        workload,
        options,
      );
    }
    if (workload.transport === 'adminCommand') {
      const identity = existing['Identity'] ?? existing['Name'];
      return this.write(() =>
        this.invoke(workload, `Remove-${workload.noun}`, {
          Identity: identity ?? '',
          Confirm: false,
        }),
      );
    }
    const id = String(existing['id'] ?? '');
    return this.write(() =>
      this.arm.send({
        method: 'DELETE',
        url: `${this.options.armUrl.replace(/\/+$/, '')}${id}?api-version=${workload.apiVersion}`,
        responseType: 'none',
      }),
    );
  }

  async initialDomain(): Promise<string | undefined> {
    const response = await this.graph.send<{ value?: { id?: string; isInitial?: boolean }[] }>({
      method: 'GET',
      url: `${this.graphBase}/domains`,
      responseType: 'json',
    });
    return response.body?.value?.find((d) => d.isInitial)?.id;
  }
}
