import type { NavSection } from '../components/layout/portal-layout';
import { paths } from '../config/paths';

/**
 * The sidebar of spec 1 §2: Main Navigation, Deployment (two dropdowns) and Onboarding, then
 * Administration (issue 18: the audit trail, issue 28: notification rules; shown disabled with the role named to
 * other roles).
 */
export const NAV_SECTIONS: readonly NavSection[] = [
  {
    title: 'Main Navigation',
    items: [
      { label: 'Projects', href: paths.projects.getHref() },
      { label: 'Client Pipelines', href: paths.clientPipelines.getHref() },
      { label: 'Configuration Comparison', href: paths.comparison.getHref() },
      { label: 'Fleet', href: paths.fleet.getHref() },
      { label: 'Customer Reports', href: paths.customerReports.getHref() },
    ],
  },
  {
    title: 'Deployment',
    dropdowns: [
      {
        label: 'App Deploy',
        items: [
          { label: 'Client Table Viewer', href: paths.storageTablesList.getHref() },
          { label: 'Create New App Deploy Table', href: paths.createStorageTable.getHref() },
          { label: 'Update Existing App Deploy Table', href: paths.updateExistingTable.getHref() },
          { label: 'Client Yaml Files', href: paths.clientYamlFiles.getHref() },
          { label: 'Client Pipeline Schedules', href: paths.schedules.getHref() },
        ],
      },
      {
        label: 'Tenant Management',
        items: [
          { label: 'Tenant Baseline Options', href: paths.tenantBaselineOptions.getHref() },
          { label: 'Tenant Backups', href: paths.tenantBackup.getHref() },
          { label: 'Baseline Rollouts', href: paths.rollouts.getHref() },
          { label: 'Trigger Capture', href: paths.triggerCapture.getHref() },
          { label: 'Capture Management', href: paths.captureManagement.getHref() },
        ],
      },
    ],
  },
  {
    title: 'Onboarding',
    items: [
      { label: 'Tenant Onboarding', href: paths.tenantBaselineOptions.getHref() },
      { label: 'App Deploy Onboarding', href: paths.appDeployOnboardingNew.getHref() },
      { label: 'App Deploy Onboarding (Old)', href: paths.appDeployOnboarding.getHref() },
      { label: 'Global Admin Onboarding', href: paths.globalAdminOnboard.getHref() },
    ],
  },
  {
    title: 'Administration',
    items: [
      { label: 'Audit Trail', href: paths.audit.getHref(), needs: 'Administrator' },
      {
        label: 'Notification Rules',
        href: paths.notificationRules.getHref(),
        needs: 'Administrator',
      },
    ],
  },
];
