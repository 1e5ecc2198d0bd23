// The Azure Resource Manager operations Aegis calls (operationId as Microsoft's specification names
// it), and who calls them: the extract (arm-contract.ts) takes exactly these from
// Azure/azure-rest-api-specs, and arm-calls.contract.test.ts fails on a call that is not one of them.
export interface ArmCall {
  operationId: string;
  /** where Aegis makes the call, and what for */
  usedBy: string;
}

export const ARM_CALLS: readonly ArmCall[] = [
  {
    operationId: 'Subscriptions_List',
    usedBy: "apps/server onboarding: the client's subscriptions, to find the one named (spec 2 §7)",
  },
  {
    operationId: 'RoleAssignments_Create',
    usedBy: 'apps/server onboarding: the subscription roles of the enterprise app (spec 2 §4, §7)',
  },
  {
    operationId: 'PolicyAssignments_List',
    usedBy: 'pipeline-tasks ARM adapter: capture, $filter=atExactScope() (ADR 049), for the ids',
  },
  {
    operationId: 'PolicyAssignments_Get',
    usedBy: 'pipeline-tasks ARM adapter: capture, each assignment by id as ARM writes it',
  },
  {
    operationId: 'PolicyAssignments_Create',
    usedBy: 'pipeline-tasks ARM adapter: deploy (create at the subscription, update at its id)',
  },
  { operationId: 'PolicyAssignments_Delete', usedBy: 'pipeline-tasks ARM adapter: off-board' },
  {
    operationId: 'Resources_List',
    usedBy:
      "pipeline-tasks ARM adapter: capture, the subscription's maintenance configurations (resourceType eq), for the ids",
  },
  {
    operationId: 'MaintenanceConfigurations_Get',
    usedBy: 'pipeline-tasks ARM adapter: capture, each configuration by id as ARM writes it',
  },
  {
    operationId: 'MaintenanceConfigurations_CreateOrUpdate',
    usedBy: "pipeline-tasks ARM adapter: deploy into Aegis's resource group, update at its id",
  },
  {
    operationId: 'MaintenanceConfigurations_Delete',
    usedBy: 'pipeline-tasks ARM adapter: off-board',
  },
  {
    operationId: 'ResourceGroups_Get',
    usedBy: "pipeline-tasks ARM adapter: whether Aegis's resource group exists",
  },
  {
    operationId: 'ResourceGroups_CreateOrUpdate',
    usedBy: "pipeline-tasks ARM adapter: Aegis's resource group, created when missing",
  },
];
