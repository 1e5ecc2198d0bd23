export * from './config';
export * from './log';
export * from './parameters';
export { runCli, USAGE, type CliIo } from './cli';
export type { AgentOptions, TenantTokenProvider } from './agent';
export type { TaskContext, PipelineDefinitionTarget } from './tasks/context';
export { runTask } from './tasks/run-task';
export {
  runFleetRebuild,
  type FleetRebuildContext,
  type FleetRebuildOutcome,
} from './tasks/fleet-rebuild';
export { runCustomerReports, type CustomerReportsContext } from './tasks/customer-reports';
export * from './tasks/layout';
export { snapshotTenant, stripProperties } from './tasks/snapshot';
export { writableBody } from './tasks/deploy';
export { HttpTenantGateway, type HttpTenantGatewayOptions } from './tenant/http-gateway';
export {
  MICROSOFT_CLOUD_DOORS,
  defaultScopeOf,
  type ServiceDoor,
  type TenantService,
} from './tenant/doors';
export type {
  AuditReadOptions,
  TenantAuditRead,
  TenantGateway,
  TenantObject,
  TenantRead,
  WorkloadRead,
  WriteOutcome,
  WriteOptions,
} from './tenant/gateway';
export { objectIdOf, objectsOfRead } from './tenant/gateway';
export {
  auditLogNotRead,
  entraAuditEntry,
  exchangeAdminAuditEntry,
  intuneAuditEntry,
} from './tenant/audit-logs';
