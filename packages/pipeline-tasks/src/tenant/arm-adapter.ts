// Azure Resource Manager resources of the client's subscription (policy assignments,
// maintenance configurations) through the ARM connector. Listed at the subscription (policy
// assignments with the workload's $filter); created where ARM has them: maintenance
// configurations only inside a resource group (Aegis's, created when missing, ADR 049); updated
// and removed where they are (their id).
import { ArmClient } from '@aegis/connectors/arm';
import type { ArmWorkload } from '@aegis/domain';

import { TaskError } from '../log';

import type { ServiceAdapterOptions } from './doors';
import type { TenantObject, WriteOutcome } from './gateway';

export class ArmTenantAdapter {
  private readonly arm: ArmClient;

  constructor(
    private readonly options: ServiceAdapterOptions & {
      subscriptionId?: string;
      /** the resource group Aegis creates resource-group resources in */
      resourceGroup: string;
    },
  ) {
    this.arm = new ArmClient({
      baseUrl: options.url,
      getToken: options.getToken,
      fetch: options.fetch,
      ...(options.retry ? { retry: options.retry } : {}),
    });
  }

  private subscriptionScope(workload: ArmWorkload): string {
    if (!this.options.subscriptionId) {
      throw new TaskError(`No subscription is known for ${workload.category}/${workload.kind}`);
    }
    return `/subscriptions/${this.options.subscriptionId}`;
  }

  private collection(workload: ArmWorkload): string {
    return `${this.subscriptionScope(workload)}/providers/${workload.resourceType}`;
  }

  async read(workload: ArmWorkload): Promise<TenantObject[]> {
    // A tenant without a subscription has no Azure resources to read.
    if (!this.options.subscriptionId) return [];
    // the service's error as it answered: the gateway turns it into the workload's outcome
    return this.arm.list<TenantObject>(this.collection(workload), {
      apiVersion: workload.apiVersion,
      ...(workload.listFilter ? { query: { $filter: workload.listFilter } } : {}),
    });
  }

  /** Aegis's resource group, created in the resource's location when missing. */
  private async resourceGroupFor(workload: ArmWorkload, body: TenantObject): Promise<string> {
    const group = `${this.subscriptionScope(workload)}/resourceGroups/${encodeURIComponent(this.options.resourceGroup)}`;
    if (!(await this.arm.find(group))) {
      const location = body['location'];
      if (typeof location !== 'string' || !location) {
        throw new TaskError(
          `${workload.category}/${workload.kind} '${String(body['name'])}' has no location for resource group ${this.options.resourceGroup}`,
        );
      }
      await this.arm.put(group, { location });
    }
    return group;
  }

  async create(workload: ArmWorkload, body: TenantObject): Promise<WriteOutcome> {
    const name = encodeURIComponent(String(body['name'] ?? ''));
    const parent =
      workload.createdIn === 'resourceGroup'
        ? await this.resourceGroupFor(workload, body)
        : this.subscriptionScope(workload);
    const object = await this.arm.put<TenantObject>(
      `${parent}/providers/${workload.resourceType}/${name}`,
      body,
      { apiVersion: workload.apiVersion },
    );
    return { status: 'done', object };
  }

  async update(workload: ArmWorkload, existing: TenantObject, body: TenantObject) {
    const id = existing['id'];
    if (typeof id !== 'string' || !id) {
      return this.create(workload, { ...body, name: existing['name'] ?? body['name'] });
    }
    const object = await this.arm.put<TenantObject>(
      id,
      { ...body, name: existing['name'] },
      {
        apiVersion: workload.apiVersion,
      },
    );
    return { status: 'done' as const, object };
  }

  async remove(workload: ArmWorkload, existing: TenantObject): Promise<WriteOutcome> {
    await this.arm.delete(String(existing['id'] ?? ''), { apiVersion: workload.apiVersion });
    return { status: 'done' };
  }
}
