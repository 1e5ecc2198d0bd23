// Microsoft Graph (beta) through the Graph connector: reads in $batch of 20 with @odata.nextLink
// pages batched again (throttled sub-requests retried after their Retry-After), writes with the
// Multi Admin Approval justification on Intune objects.
import { isServiceError } from '@aegis/connectors';
import { GraphClient, type GraphBatchRequest } from '@aegis/connectors/graph';
import type { GraphWorkload } from '@aegis/domain';

import { TaskError } from '../log';

import type { ServiceAdapterOptions } from './doors';
import { objectIdOf, type TenantObject, type WriteOptions, type WriteOutcome } from './gateway';
import { errorText, writeOutcomeOf } from './write-outcome';

const APPROVAL_HEADER = 'x-msft-approval-justification';
const MAX_PAGE_ROUNDS = 500;

export class GraphTenantAdapter {
  private readonly graph: GraphClient;

  constructor(options: ServiceAdapterOptions) {
    this.graph = new GraphClient({
      baseUrl: options.url,
      version: 'beta',
      getToken: options.getToken,
      fetch: options.fetch,
      ...(options.retry ? { retry: options.retry } : {}),
    });
  }

  /** Collections and singletons in $batches; the nextLinks of one round form the next round. */
  async readAll(workloads: readonly GraphWorkload[]): Promise<Map<GraphWorkload, TenantObject[]>> {
    const result = new Map<GraphWorkload, TenantObject[]>(workloads.map((w) => [w, []]));
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
    return result;
  }

  private async write(
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
    return writeOutcomeOf(response.status, response.body);
  }

  create(workload: GraphWorkload, body: TenantObject, options?: WriteOptions) {
    return this.write(
      workload.singleton ? 'PATCH' : 'POST',
      workload.path,
      body,
      workload,
      options,
    );
  }

  update(
    workload: GraphWorkload,
    existing: TenantObject,
    body: TenantObject,
    options?: WriteOptions,
  ): Promise<WriteOutcome> {
    const id = objectIdOf(workload, existing);
    const path =
      workload.singleton || !id ? workload.path : `${workload.path}/${encodeURIComponent(id)}`;
    return this.write('PATCH', path, body, workload, options);
  }

  remove(
    workload: GraphWorkload,
    existing: TenantObject,
    options?: WriteOptions,
  ): Promise<WriteOutcome> {
    const id = objectIdOf(workload, existing);
    if (!id) throw new TaskError(`${workload.category}/${workload.kind} object has no id`);
    return this.write(
      'DELETE',
      `${workload.path}/${encodeURIComponent(id)}`,
      undefined,
      workload,
      options,
    );
  }

  async initialDomain(): Promise<string | undefined> {
    const domains = await this.graph.list<{ id?: string; isInitial?: boolean }>('/domains');
    return domains.find((d) => d.isInitial)?.id;
  }
}
