// Azure Resource Manager resources of the client's subscription (policy assignments,
// maintenance configurations) through the ARM connector, i.e. Microsoft's SDKs (ADR 058). Listed at
// the subscription (policy assignments with the workload's $filter), then each read by id so the
// capture keeps ARM's own JSON; created where ARM has them: maintenance configurations only inside
// a resource group (Aegis's, created when missing, ADR 049); updated and removed at their id.
import { ArmClient, type ArmResource } from '@aegis/connectors/arm';
import { textOf, type ArmWorkload } from '@aegis/domain';

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

  private subscription(workload: ArmWorkload): string {
    if (!this.options.subscriptionId) {
      throw new TaskError(`No subscription is known for ${workload.category}/${workload.kind}`);
    }
    return this.options.subscriptionId;
  }

  async read(workload: ArmWorkload): Promise<TenantObject[]> {
    // A tenant without a subscription has no Azure resources to read.
    if (!this.options.subscriptionId) return [];
    const subscriptionId = this.options.subscriptionId;
    // the service's error as it answered: the gateway turns it into the workload's outcome
    const ids =
      workload.resourceType === 'Microsoft.Authorization/policyAssignments'
        ? await this.arm.listPolicyAssignmentIds(subscriptionId, {
            apiVersion: workload.apiVersion,
            ...(workload.listFilter ? { filter: workload.listFilter } : {}),
          })
        : await this.arm.listResourceIds(subscriptionId, workload.resourceType);
    const objects: ArmResource[] = [];
    for (const id of ids) objects.push(await this.arm.getResource(id, workload.apiVersion));
    return objects;
  }

  /** Aegis's resource group, created in the resource's location when missing. */
  private async resourceGroupFor(workload: ArmWorkload, body: TenantObject): Promise<string> {
    const subscriptionId = this.subscription(workload);
    const name = this.options.resourceGroup;
    if (!(await this.arm.findResourceGroup(subscriptionId, name))) {
      const location = body['location'];
      if (typeof location !== 'string' || !location) {
        throw new TaskError(
          `${workload.category}/${workload.kind} '${String(body['name'])}' has no location for resource group ${name}`,
        );
      }
      await this.arm.putResourceGroup(subscriptionId, name, location);
    }
    return `/subscriptions/${subscriptionId}/resourceGroups/${name}`;
  }

  async create(workload: ArmWorkload, body: TenantObject): Promise<WriteOutcome> {
    const parent =
      workload.createdIn === 'resourceGroup'
        ? await this.resourceGroupFor(workload, body)
        : `/subscriptions/${this.subscription(workload)}`;
    const id = `${parent}/providers/${workload.resourceType}/${textOf(body['name'] ?? '')}`;
    const object = await this.arm.putResource(id, workload.apiVersion, body);
    return { status: 'done', object };
  }

  async update(workload: ArmWorkload, existing: TenantObject, body: TenantObject) {
    const id = existing['id'];
    if (typeof id !== 'string' || !id) {
      return this.create(workload, { ...body, name: existing['name'] ?? body['name'] });
    }
    const object = await this.arm.putResource(id, workload.apiVersion, body);
    return { status: 'done' as const, object };
  }

  async remove(workload: ArmWorkload, existing: TenantObject): Promise<WriteOutcome> {
    await this.arm.deleteResource(textOf(existing['id'] ?? ''), workload.apiVersion);
    return { status: 'done' };
  }
}
