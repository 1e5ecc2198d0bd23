// Azure Resource Manager resources of the client's subscription (policy assignments,
// maintenance configurations) through the ARM connector.
import { ArmClient } from '@aegis/connectors/arm';
import type { ArmWorkload } from '@aegis/domain';

import { TaskError } from '../log';

import type { ServiceAdapterOptions } from './doors';
import type { TenantObject, WriteOutcome } from './gateway';

export class ArmTenantAdapter {
  private readonly arm: ArmClient;

  constructor(private readonly options: ServiceAdapterOptions & { subscriptionId?: string }) {
    this.arm = new ArmClient({
      baseUrl: options.url,
      getToken: options.getToken,
      fetch: options.fetch,
      ...(options.retry ? { retry: options.retry } : {}),
    });
  }

  private collection(workload: ArmWorkload): string {
    if (!this.options.subscriptionId) {
      throw new TaskError(`No subscription is known for ${workload.category}/${workload.kind}`);
    }
    return `/subscriptions/${this.options.subscriptionId}/providers/${workload.resourceType}`;
  }

  async read(workload: ArmWorkload): Promise<TenantObject[]> {
    // A tenant without a subscription has no Azure resources to read.
    if (!this.options.subscriptionId) return [];
    // the service's error as it answered: the gateway turns it into the workload's outcome
    return this.arm.list<TenantObject>(this.collection(workload), {
      apiVersion: workload.apiVersion,
    });
  }

  async create(workload: ArmWorkload, body: TenantObject): Promise<WriteOutcome> {
    const name = String(body['name'] ?? '');
    const object = await this.arm.put<TenantObject>(
      `${this.collection(workload)}/${encodeURIComponent(name)}`,
      body,
      { apiVersion: workload.apiVersion },
    );
    return { status: 'done', object };
  }

  update(workload: ArmWorkload, existing: TenantObject, body: TenantObject) {
    return this.create(workload, { ...body, name: existing['name'] ?? body['name'] });
  }

  async remove(workload: ArmWorkload, existing: TenantObject): Promise<WriteOutcome> {
    await this.arm.delete(String(existing['id'] ?? ''), { apiVersion: workload.apiVersion });
    return { status: 'done' };
  }
}
