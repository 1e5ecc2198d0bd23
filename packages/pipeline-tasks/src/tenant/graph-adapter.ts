// Microsoft Graph (beta, or v1.0 for a workload that says so) through the Graph connector: reads
// in $batch of 20 per version with @odata.nextLink pages batched again (throttled sub-requests
// retried after their Retry-After), writes with the Multi Admin Approval justification on Intune
// objects.
import { GraphClient, type GraphBatchRequest, type GraphVersion } from '@aegis/connectors/graph';
import type { GraphWorkload } from '@aegis/domain';

import { TaskError } from '../log';

import type { ServiceAdapterOptions } from './doors';
import {
  notReadOutcome,
  notReadOutcomeOfError,
  objectIdOf,
  type TenantObject,
  type WorkloadRead,
  type WriteOptions,
  type WriteOutcome,
} from './gateway';
import { writeOutcomeOf } from './write-outcome';

const APPROVAL_HEADER = 'x-msft-approval-justification';
const MAX_PAGE_ROUNDS = 500;

/** Intune asks for the Multi Admin Approval justification Base64-encoded (UTF-8). */
export function approvalJustification(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

const versionOf = (workload: GraphWorkload): GraphVersion => workload.version ?? 'beta';

interface GraphErrorBody {
  error?: { code?: unknown; message?: unknown };
}

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

  /**
   * Collections and singletons in $batches; the nextLinks of one round form the next round. A
   * sub-request that fails takes only its own workload out of the read; a $batch that fails (after
   * the retries of throttled answers) takes the workloads it carried.
   */
  async readAll(workloads: readonly GraphWorkload[]): Promise<Map<GraphWorkload, WorkloadRead>> {
    const result = new Map<GraphWorkload, WorkloadRead>();
    // a $batch carries requests of its own version only
    const versions = [...new Set(workloads.map(versionOf))];
    await Promise.all(
      versions.map((version) =>
        this.readVersion(
          workloads.filter((w) => versionOf(w) === version),
          version,
          result,
        ),
      ),
    );
    return result;
  }

  private async readVersion(
    workloads: readonly GraphWorkload[],
    version: GraphVersion,
    result: Map<GraphWorkload, WorkloadRead>,
  ): Promise<void> {
    const objects = new Map<GraphWorkload, TenantObject[]>(workloads.map((w) => [w, []]));
    const versionBase = this.graph.url('/', version).replace(/\/$/, '');
    // navigation properties that are configuration (a policy's settings) come with the list
    let pending = workloads.map((workload) => ({
      workload,
      url: workload.expand
        ? `${workload.path}?$expand=${encodeURIComponent(workload.expand)}`
        : workload.path,
    }));
    for (let round = 0; pending.length > 0; round += 1) {
      if (round > MAX_PAGE_ROUNDS) {
        for (const { workload } of pending) {
          result.set(workload, { status: 'failed', message: 'Graph paging did not end' });
        }
        break;
      }
      const requests: GraphBatchRequest[] = pending.map((item, index) => ({
        id: String(index + 1),
        method: 'GET',
        url: item.url,
      }));
      const responses = await this.graph
        .batch<TenantObject>(requests, { version })
        .catch((error: unknown) => {
          for (const { workload } of pending) {
            result.set(workload, notReadOutcomeOfError(workload, error));
          }
          return undefined;
        });
      if (!responses) break;
      const next: typeof pending = [];
      pending.forEach((item, index) => {
        const response = responses[index];
        if (!response || response.status < 200 || response.status >= 300) {
          const error = (response?.body as GraphErrorBody | undefined)?.error;
          result.set(
            item.workload,
            notReadOutcome(
              item.workload,
              response?.status,
              typeof error?.code === 'string' ? error.code : undefined,
              typeof error?.message === 'string'
                ? error.message
                : `Graph answered nothing for ${item.url}`,
            ),
          );
          return;
        }
        const body = response.body ?? {};
        const list = objects.get(item.workload) ?? [];
        if (item.workload.singleton && !item.workload.servedAsCollection) {
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
            return;
          }
        }
        result.set(item.workload, { status: 'read', objects: list });
      });
      pending = next;
    }
  }

  private async write(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body: TenantObject | undefined,
    workload: GraphWorkload,
    options: WriteOptions | undefined,
  ): Promise<WriteOutcome> {
    const response = await this.graph.send<TenantObject | undefined>(method, path, {
      version: versionOf(workload),
      ...(body ? { body } : {}),
      ...(workload.intune && options?.justification
        ? { headers: { [APPROVAL_HEADER]: approvalJustification(options.justification) } }
        : {}),
    });
    return writeOutcomeOf(response.status, response.body);
  }

  create(workload: GraphWorkload, body: TenantObject, options?: WriteOptions) {
    if (workload.servedAsCollection) {
      // one object per tenant that always exists: it is updated, never created
      throw new TaskError(
        `${workload.category}/${workload.kind}: the tenant answered no object to update at ${workload.path}`,
      );
    }
    return this.write(
      workload.singleton ? (workload.updateMethod ?? 'PATCH') : 'POST',
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
    const keyed = !workload.singleton || workload.servedAsCollection;
    if (keyed && !id) throw new TaskError(`${workload.category}/${workload.kind} object has no id`);
    const path = keyed ? `${workload.path}/${encodeURIComponent(id ?? '')}` : workload.path;
    return this.write(workload.updateMethod ?? 'PATCH', path, body, workload, options);
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
