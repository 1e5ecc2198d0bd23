/**
 * What each audited change did, in words (issue 27): the audit trail records an action as
 * `METHOD /route/:template`; the screen shows this phrase, keeping the route as the detail a
 * filter and a support call need. Every non-GET route of the API is here.
 */
export const AUDIT_ACTION_TEXT: Readonly<Record<string, string>> = {
  'POST /api/backups/:client/runs': 'Started a backup',
  'POST /api/hooks/devops/git-push':
    'Azure DevOps reported a push to main; the changed clients’ fleet figures were refreshed',
  'POST /api/backups/:client/restore': 'Proposed restoring a backup (pull request)',
  'POST /api/backups/:client/restore-runs': 'Started restoring policies into the tenant',
  'POST /api/rollouts/plans': 'Started fresh captures to plan a rollout',
  'POST /api/rollouts': 'Planned a rollout of the baseline in rings',
  'POST /api/rollouts/:id/start': 'Started a rollout',
  'POST /api/rollouts/:id/approve': "Gave the go-ahead for a rollout's next ring",
  'POST /api/rollouts/:id/resume': 'Resumed a halted rollout',
  'POST /api/rollouts/:id/abort': 'Aborted a rollout',
  'POST /api/rollouts/:id/rollback': 'Rolled a rollout back',
  'POST /api/rollouts/:id/unread-decisions':
    'Acknowledged or excluded a rollout tenant whose workloads the plan could not read',
  'POST /api/projects/:projectId/pipelines/:pipelineId/runs':
    'Ran a client app-deployment pipeline',
  'POST /api/app-tables': 'Created an app table',
  'POST /api/app-tables/:table/copy': 'Copied apps into an app table',
  'POST /api/app-tables/:table/apps': 'Added an app to an app table',
  'PATCH /api/app-tables/:table/entities/:partitionKey/:rowKey': 'Updated an app in an app table',
  'POST /api/app-tables/:table/delete': 'Deleted apps from an app table',
  'POST /api/app-tables/:table/properties': 'Added a property to every app of a table',
  'DELETE /api/app-tables/:table/properties/:name': 'Removed a property from every app of a table',
  'POST /api/compliance/:client/preview': 'Previewed compliance with unsaved matches',
  'POST /api/compliance/:client/accepted-deviations': 'Accepted deviations',
  'POST /api/compliance/:client/accepted-deviations/decisions':
    'Decided on a requested acceptance of a critical deviation',
  'DELETE /api/compliance/:client/accepted-deviations': 'Revoked an accepted deviation',
  'POST /api/compliance/:client/matching/matches': 'Saved policy matches',
  'DELETE /api/compliance/:client/matching/matches': 'Removed a policy match',
  'DELETE /api/compliance/:client/matching': 'Cleared every policy match',
  'POST /api/baseline/deploy/runs': 'Deployed baseline components to a tenant',
  'POST /api/baseline/deploy/preview': 'Previewed a baseline deployment',
  'POST /api/baseline/offboard/runs': 'Removed baseline components from a tenant (off-board)',
  'POST /api/clients/:client/dropped-layers/runs':
    "Removed the policies of a client's dropped layers from its tenant (off-board)",
  'POST /api/client-yaml/:folder/apps': "Changed the apps of a client's pipeline YAML",
  'PUT /api/schedules/:folder': "Changed a client pipeline's schedule",
  'POST /api/comparison/runs': 'Ran a configuration comparison',
  'POST /api/capture/clients/:client/analysis': 'Analysed a capture for review',
  'POST /api/capture/clients/:client/pull-requests': 'Approved a capture (pull request)',
  'POST /api/capture/clients/:client/runs': 'Started a capture',
  'POST /api/drift/:client/checks': "Started a check of a client tenant's drift",
  'PUT /api/drift/:client/settings': "Changed a client's drift check settings",
  'POST /api/drift/:client/revert-runs':
    "Started reverting drifted policies to the client's approved configuration",
  'POST /api/clients/:client/parameters/changes':
    "Proposed a change to a client's tenant parameters (pull request)",
  'POST /api/clients/:client/promotions':
    "Proposed promoting a client's policy into the baseline (pull request)",
  'POST /api/clients/:client/layers/changes':
    "Proposed a change to a client's baseline layers (pull request)",
  'POST /api/branch-protection': 'Set up the four-eyes branch policy on main',
  'POST /api/onboarding/roles': "Assigned Aegis's roles in a client tenant",
  'POST /api/onboarding/global-admin/reader':
    'Gave Reader on the default subscription (Global Admin tool)',
  'POST /api/onboarding/tenant/runs': 'Started tenant onboarding',
  'POST /api/onboarding/tenant-legacy/runs': 'Started tenant onboarding (legacy)',
  'POST /api/onboarding/app-deploy/runs': 'Started app-deploy onboarding (legacy)',
  'POST /api/onboarding/app-deploy-new/runs': 'Started app-deploy onboarding',
  'POST /api/notifications/channels': 'Added a notification channel',
  'PUT /api/notifications/channels/:id': 'Changed a notification channel',
  'DELETE /api/notifications/channels/:id': 'Deleted a notification channel',
  'POST /api/notifications/rules': 'Added a notification rule',
  'PUT /api/notifications/rules/:id': 'Changed a notification rule',
  'DELETE /api/notifications/rules/:id': 'Deleted a notification rule',
  'PUT /api/customer-reports/branding': "Changed the MSP's branding of customer reports",
  'PUT /api/customer-reports/:client/schedule': "Changed a client's customer report schedule",
  'POST /api/customer-reports/:client/sends': 'Sent a customer report (send now)',
  'POST /api/customer-reports/runs': 'Sent the customer reports that were due',
  'POST /api/notifications/:id/acknowledge': 'Acknowledged a notification',
  'POST /api/notifications/:id/snooze': 'Snoozed a notification',
  'POST /api/notifications/channels/:id/test': 'Sent a test message to a notification channel',
};

/** The phrase for an audited action; an action without one (a route added later) as recorded. */
export function auditActionText(action: string): string {
  return AUDIT_ACTION_TEXT[action] ?? action;
}
