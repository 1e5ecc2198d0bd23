/** Every route of the three spec documents' route tables, so links are never built from strings. */
export const paths = {
  landing: { path: '/', getHref: () => '/' },
  login: {
    path: '/login',
    getHref: (returnTo?: string) =>
      returnTo ? `/login?returnTo=${encodeURIComponent(returnTo)}` : '/login',
  },
  projects: { path: '/azure-ado-projects', getHref: () => '/azure-ado-projects' },
  associatedPipelines: {
    path: '/associated-pipelines/:projectName/:projectId',
    getHref: (projectName: string, projectId: string) =>
      `/associated-pipelines/${encodeURIComponent(projectName)}/${encodeURIComponent(projectId)}`,
  },
  clientPipelines: { path: '/pipelines-list', getHref: () => '/pipelines-list' },
  /** Issue 17: every client's compliance and trend. */
  fleet: { path: '/fleet', getHref: () => '/fleet' },
  /** Issue 30 §3: rollouts of the baseline in rings, a new rollout from its plan, one rollout. */
  rollouts: { path: '/rollouts', getHref: () => '/rollouts' },
  /** with clients: those chosen already (planning a halted rollout again) */
  newRollout: {
    path: '/rollouts/new',
    getHref: (clients: readonly string[] = []) =>
      clients.length > 0 ? `/rollouts/new?clients=${clients.join(',')}` : '/rollouts/new',
  },
  rollout: {
    path: '/rollouts/:id',
    getHref: (id: string) => `/rollouts/${encodeURIComponent(id)}`,
  },
  /** Issue 29: each client's customer report schedule, preview, send now and history. */
  customerReports: {
    path: '/customer-reports',
    getHref: (client?: string) =>
      client ? `/customer-reports?client=${encodeURIComponent(client)}` : '/customer-reports',
  },
  /** Issue 29 (ADR 072): the MSP's branding on every customer report, for Administrators. */
  customerReportBranding: {
    path: '/customer-reports/branding',
    getHref: () => '/customer-reports/branding',
  },
  /** Issue 28 (ADR 063): a client's drift as its last scheduled check recorded it. */
  clientDrift: {
    path: '/fleet/:clientCode/drift',
    getHref: (clientCode: string) => `/fleet/${clientCode}/drift`,
  },
  /** Issue 30 §1–2 (ADR 073): a client's tenant parameters and baseline layers. */
  clientParameters: {
    path: '/fleet/:clientCode/parameters',
    getHref: (clientCode: string) => `/fleet/${clientCode}/parameters`,
  },
  /** Issue 18 §5: the audit trail, for Administrators. */
  audit: { path: '/audit', getHref: () => '/audit' },
  /** Issue 28 §5: notification rules and channels, for Administrators. */
  notificationRules: { path: '/notification-rules', getHref: () => '/notification-rules' },
  /** ADR 021: the 'Options - Aegis' variant is `?baseline=options` (it was /tenant-baseline-options). */
  comparison: {
    path: '/fetch-json-files',
    getHref: (baseline?: 'options') =>
      baseline ? `/fetch-json-files?baseline=${baseline}` : '/fetch-json-files',
  },
  tenantBaselineOptions: {
    path: '/tenant-baseline-options',
    getHref: () => '/tenant-baseline-options',
  },
  captureManagement: {
    path: '/capture-management/:clientCode?',
    getHref: (clientCode?: string) =>
      clientCode ? `/capture-management/${clientCode}` : '/capture-management',
  },
  triggerCapture: { path: '/trigger-capture', getHref: () => '/trigger-capture' },
  clientYamlFiles: { path: '/ViewAppList', getHref: () => '/ViewAppList' },
  storageTablesList: { path: '/storage-tables-list', getHref: () => '/storage-tables-list' },
  createStorageTable: {
    path: '/create-azure-storage-table',
    getHref: () => '/create-azure-storage-table',
  },
  updateExistingTable: { path: '/update-existing-table', getHref: () => '/update-existing-table' },
  schedules: {
    path: '/ClientPipelineSchedules',
    getHref: (client?: string) =>
      client
        ? `/ClientPipelineSchedules?client=${encodeURIComponent(client)}`
        : '/ClientPipelineSchedules',
  },
  tenantBackup: { path: '/tenant-backup', getHref: () => '/tenant-backup' },
  appDeployOnboarding: { path: '/AppDeploy-Onboarding', getHref: () => '/AppDeploy-Onboarding' },
  appDeployOnboardingNew: {
    path: '/AppDeploy-Onboarding-New',
    getHref: () => '/AppDeploy-Onboarding-New',
  },
  globalAdminOnboard: { path: '/global-admin-onboard', getHref: () => '/global-admin-onboard' },
} as const;
