export * from './identity';
export * from './azurite';
export * from './seed/app-tables';
export * from './seed/fleet-deviations';
export * from './devops';
export * from './faults';
export {
  APP_DEPLOY_ONLY_CLIENTS,
  RESOURCES_ROOT,
  SAMPLE_CLIENTS,
  baselinePolicies,
  buildSampleRepo,
  generateSampleConfigRepo,
  sampleConfigHistory,
} from './seed/sample-config';
export type { Deviation, SampleClient } from './seed/sample-config';
export {
  CONFIG_REPOSITORY_NAME,
  FIXED_PIPELINE_IDS,
  SAMPLE_PROJECTS,
  seedDevOps,
} from './seed/seed-devops';
export type { SeedDevOpsOptions, SeedDevOpsResult } from './seed/seed-devops';
export * from './tenants';
export {
  startTenantPipelines,
  TENANT_PIPELINES_TOKEN,
  type TenantPipelines,
} from './devops/tenant-pipelines';
