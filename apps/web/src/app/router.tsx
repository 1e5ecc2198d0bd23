import { lazy, Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';

import { paths } from '../config/paths';

import { PageLoading } from './page-loading';

const NotFoundPage = lazy(async () => ({
  default: (await import('./not-found-page')).NotFoundPage,
}));

function NotFound() {
  return (
    <Suspense fallback={<PageLoading />}>
      <NotFoundPage />
    </Suspense>
  );
}

/** Signed-in screens; each feature's code is loaded only when its route is opened. */
const portalRoutes: RouteObject[] = [
  {
    path: paths.fleet.path,
    lazy: async () => ({
      Component: (await import('../features/fleet/fleet-page')).FleetPage,
    }),
  },
  {
    path: paths.customerReports.path,
    lazy: async () => ({
      Component: (await import('../features/customer-reports/customer-reports-page'))
        .CustomerReportsPage,
    }),
  },
  {
    path: paths.customerReportBranding.path,
    lazy: async () => ({
      Component: (await import('../features/customer-reports/branding-page')).BrandingPage,
    }),
  },
  {
    path: paths.rollouts.path,
    lazy: async () => ({
      Component: (await import('../features/rollouts/rollouts-page')).RolloutsPage,
    }),
  },
  {
    path: paths.newRollout.path,
    lazy: async () => ({
      Component: (await import('../features/rollouts/new-rollout-page')).NewRolloutPage,
    }),
  },
  {
    path: paths.rollout.path,
    lazy: async () => ({
      Component: (await import('../features/rollouts/rollout-page')).RolloutPage,
    }),
  },
  {
    path: paths.clientDrift.path,
    lazy: async () => ({
      Component: (await import('../features/drift/drift-page')).DriftPage,
    }),
  },
  {
    path: paths.clientParameters.path,
    lazy: async () => ({
      Component: (await import('../features/parameters/parameters-page')).ParametersPage,
    }),
  },
  {
    path: paths.audit.path,
    lazy: async () => ({
      Component: (await import('../features/audit/audit-page')).AuditPage,
    }),
  },
  {
    path: paths.notificationRules.path,
    lazy: async () => ({
      Component: (await import('../features/notifications/notification-settings-page'))
        .NotificationSettingsPage,
    }),
  },
  {
    path: paths.tenantBackup.path,
    lazy: async () => ({
      Component: (await import('../features/backups/tenant-backup-page')).TenantBackupPage,
    }),
  },
  {
    path: paths.storageTablesList.path,
    lazy: async () => ({
      Component: (await import('../features/app-tables/table-viewer-page')).TableViewerPage,
    }),
  },
  {
    // also written /Create-Azure-Storage-Table; routes match case-insensitively
    path: paths.createStorageTable.path,
    lazy: async () => ({
      Component: (await import('../features/app-tables/create-table-page')).CreateTablePage,
    }),
  },
  {
    path: paths.updateExistingTable.path,
    lazy: async () => ({
      Component: (await import('../features/app-tables/update-table-page')).UpdateTablePage,
    }),
  },
  {
    path: paths.clientYamlFiles.path,
    lazy: async () => ({
      Component: (await import('../features/client-yaml/client-yaml-page')).ClientYamlPage,
    }),
  },
  {
    path: paths.schedules.path,
    lazy: async () => ({
      Component: (await import('../features/schedules/client-pipeline-schedules-page'))
        .ClientPipelineSchedulesPage,
    }),
  },
  {
    path: paths.projects.path,
    lazy: async () => ({
      Component: (await import('../features/projects/projects-page')).ProjectsPage,
    }),
  },
  {
    path: paths.associatedPipelines.path,
    lazy: async () => ({
      Component: (await import('../features/pipelines/associated-pipelines-page'))
        .AssociatedPipelinesPage,
    }),
  },
  {
    path: paths.comparison.path,
    lazy: async () => ({
      Component: (await import('../features/comparison/comparison-page')).ComparisonRoutePage,
    }),
  },
  {
    // Also the admin consent return address (spec 2 §2); the comparison variant moved (ADR 021).
    path: paths.tenantBaselineOptions.path,
    lazy: async () => ({
      Component: (await import('../features/onboarding/tenant-baseline-page')).TenantBaselinePage,
    }),
  },
  {
    path: paths.appDeployOnboarding.path,
    lazy: async () => ({
      Component: (await import('../features/onboarding/app-deploy-onboarding-page'))
        .AppDeployOnboardingPage,
    }),
  },
  {
    path: paths.appDeployOnboardingNew.path,
    lazy: async () => ({
      Component: (await import('../features/onboarding/app-deploy-onboarding-new-page'))
        .AppDeployOnboardingNewPage,
    }),
  },
  {
    path: paths.triggerCapture.path,
    lazy: async () => ({
      Component: (await import('../features/capture/trigger-capture-page')).TriggerCapturePage,
    }),
  },
  {
    path: paths.captureManagement.path,
    lazy: async () => ({
      Component: (await import('./capture-management-route')).CaptureManagementRoute,
    }),
  },
  {
    path: paths.clientPipelines.path,
    lazy: async () => ({
      Component: (await import('../features/pipelines/client-pipelines-page')).ClientPipelinesPage,
    }),
  },
];

const topRoutes: RouteObject[] = [
  {
    path: paths.landing.path,
    lazy: async () => ({
      Component: (await import('../features/landing/landing-page')).LandingPage,
    }),
  },
  {
    path: paths.login.path,
    lazy: async () => ({ Component: (await import('../features/auth/login-page')).LoginPage }),
  },
  {
    // The query client (and its library) comes with the first screen that needs it.
    lazy: async () => ({ Component: (await import('./query-layout')).QueryLayout }),
    children: [
      {
        // Spec 2 §2: open without an Aegis sign-in; the Global Administrator signs in instead.
        path: paths.globalAdminOnboard.path,
        lazy: async () => ({
          Component: (await import('../features/onboarding/global-admin-onboard-page'))
            .GlobalAdminOnboardPage,
        }),
      },
      {
        // The sign-in and role check (with the roles query) loads with the portal, not the landing page.
        lazy: async () => ({ Component: (await import('./require-auth')).RequireAuth }),
        children: [
          {
            // The portal's layout (and what it imports) loads after sign-in, not with the landing page.
            lazy: async () => ({ Component: (await import('./portal-shell')).PortalShell }),
            children: [...portalRoutes, { path: '*', Component: NotFound }],
          },
        ],
      },
    ],
  },
];

/** One root, so the first lazy route shows a spinner while its code loads. */
export const routes: RouteObject[] = [{ HydrateFallback: PageLoading, children: topRoutes }];

export function createRouter() {
  return createBrowserRouter(routes);
}
