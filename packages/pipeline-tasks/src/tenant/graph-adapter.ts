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
function approvalJustification(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

const versionOf = (workload: GraphWorkload): GraphVersion => workload.version ?? 'beta';

/** What reading one URL with all its pages gave. */
export type PagesRead =
  | { status: 'read'; objects: TenantObject[] }
  /** Graph answered the sub-request with an error */
  | { status: 'refused'; httpStatus?: number; code?: string; message: string }
  /** the $batch itself failed */
  | { status: 'threw'; error: unknown }
  /** the nextLinks did not end */
  | { status: 'endless' };

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
    // navigation properties that are configuration (a policy's settings) come with the list
    const urls = workloads.map((workload) =>
      workload.expand
        ? `${workload.path}?$expand=${encodeURIComponent(workload.expand)}`
        : workload.path,
    );
    const pages = await this.readPages(urls, version, (index) => {
      const workload = workloads[index];
      return !workload?.singleton || Boolean(workload.servedAsCollection);
    });
    pages.forEach((page, index) => {
      const workload = workloads[index];
      if (!workload) return;
      if (page.status === 'read') result.set(workload, page);
      else if (page.status === 'threw')
        result.set(workload, notReadOutcomeOfError(workload, page.error));
      else if (page.status === 'endless') {
        result.set(workload, { status: 'failed', message: 'Graph paging did not end' });
      } else {
        result.set(workload, notReadOutcome(workload, page.httpStatus, page.code, page.message));
      }
    });
  }

  /**
   * Reads each URL (a collection with all its pages, or an object) in $batches: the nextLinks of
   * one round form the next round. A sub-request that fails takes only its own URL out of the
   * read; a $batch that fails (after the retries of throttled answers) the URLs it carried.
   */
  async readPages(
    urls: readonly string[],
    version: GraphVersion,
    isCollection: (index: number) => boolean = () => true,
  ): Promise<PagesRead[]> {
    const results: PagesRead[] = urls.map(() => ({ status: 'read', objects: [] }));
    const objects = urls.map((): TenantObject[] => []);
    const versionBase = this.graph.url('/', version).replace(/\/$/, '');
    let pending = urls.map((url, index) => ({ index, url }));
    for (let round = 0; pending.length > 0; round += 1) {
      if (round > MAX_PAGE_ROUNDS) {
        for (const { index } of pending) results[index] = { status: 'endless' };
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
          for (const { index } of pending) results[index] = { status: 'threw', error };
          return undefined;
        });
      if (!responses) break;
      const next: typeof pending = [];
      pending.forEach((item, position) => {
        const response = responses[position];
        if (!response || response.status < 200 || response.status >= 300) {
          const error = (response?.body as GraphErrorBody | undefined)?.error;
          results[item.index] = {
            status: 'refused',
            ...(response?.status ? { httpStatus: response.status } : {}),
            ...(typeof error?.code === 'string' ? { code: error.code } : {}),
            message:
              typeof error?.message === 'string'
                ? error.message
                : `Graph answered nothing for ${item.url}`,
          };
          return;
        }
        const body = response.body ?? {};
        const list = objects[item.index] ?? [];
        if (!isCollection(item.index)) {
          list.push(body);
        } else {
          const value = body['value'];
          if (Array.isArray(value)) list.push(...(value as TenantObject[]));
          const nextLink = body['@odata.nextLink'];
          if (typeof nextLink === 'string') {
            const relative = nextLink.startsWith(versionBase)
              ? nextLink.slice(versionBase.length)
              : nextLink;
            next.push({ index: item.index, url: relative });
            return;
          }
        }
        results[item.index] = { status: 'read', objects: list };
      });
      pending = next;
    }
    return results;
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
