export {
  DEFAULT_SUBSCRIPTION_NAME,
  SIMULATED_TENANTS,
  findGlobalAdministrator,
  findSimulatedTenant,
} from './registry';
export type { SimulatedSubscription, SimulatedTenant, SimulatedUserAccount } from './registry';
export { AZURE_ROLE_DEFINITIONS, DIRECTORY_ROLE_TEMPLATES, FIRST_PARTY_APPS } from './catalogue';
export { AEGIS_ENTERPRISE_APP, DEFAULT_SCENARIOS, TenantWorld } from './world';
export type { AdminConsentResult, TenantScenarios, TenantWorldOptions } from './world';
export { TenantState } from './tenant-state';
export type { MultiTenantApplication } from './tenant-state';
export {
  TENANT_EMULATOR_AUDIENCES,
  buildTenantEmulator,
  jwksTenantTokenVerifier,
  listenTenantEmulator,
} from './server';
export type {
  TenantEmulator,
  TenantEmulatorOptions,
  TenantEmulatorServer,
  TenantTokenVerifier,
} from './server';
export type { TenantPrincipal } from './wire';
export type { ArmContractOperation } from './arm-contract';
