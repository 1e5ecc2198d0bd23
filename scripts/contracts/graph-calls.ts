// The Graph paths Aegis calls or the tenant emulator serves, as path templates (`{id}` for a key):
// the workloads the pipeline tasks capture and deploy (domain TENANT_WORKLOADS), the directory
// calls of onboarding (connectors DirectoryClient) and what the emulator serves beside them. The
// extractor looks each up in Microsoft's metadata; a test checks every call made is one of these.
import { DIRECTORY_USERS_WORKLOAD, TENANT_WORKLOADS, type GraphWorkload } from '@aegis/domain';

const graphWorkloads = [...TENANT_WORKLOADS, DIRECTORY_USERS_WORKLOAD].filter(
  (w): w is GraphWorkload => w.transport === 'graph',
);

/** Directory calls of onboarding and deploy, and paths the emulator serves beside the workloads. */
export const OTHER_PATHS = [
  '/organization',
  '/organization/{id}',
  '/domains',
  '/domains/{id}',
  '/me',
  '/servicePrincipals',
  '/servicePrincipals/{id}',
  '/directoryObjects/{id}',
  '/directoryRoleTemplates',
  '/directoryRoleTemplates/{id}',
  '/directoryRoles',
  '/directoryRoles/{id}',
  '/directoryRoles/{id}/members',
  '/directoryRoles/{id}/members/$ref',
  '/directoryRoles/{id}/members/{id}/$ref',
  '/directorySettingTemplates',
  '/directorySettingTemplates/{id}',
  '/admin/sharepoint/settings',
  '/deviceManagement/configurationPolicies/{id}/settings',
  '/deviceManagement/deviceCompliancePolicies/{id}/scheduledActionsForRule',
  // who changed what (issue 28 §2, ADR 064)
  '/auditLogs/directoryAudits',
  '/auditLogs/directoryAudits/{id}',
  '/deviceManagement/auditEvents',
  '/deviceManagement/auditEvents/{id}',
] as const;

/** Every path template to extract, workloads first. */
export function graphPathTemplates(): string[] {
  const paths = new Set<string>();
  for (const workload of graphWorkloads) {
    // the keyed form too: whether a path is a collection is Microsoft's to say, not the workload's
    paths.add(workload.path);
    paths.add(`${workload.path}/{id}`);
  }
  for (const path of OTHER_PATHS) paths.add(path);
  return [...paths];
}
