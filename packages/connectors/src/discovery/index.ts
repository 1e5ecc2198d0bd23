export {
  LOGIN_BASE_URL,
  TenantDiscovery,
  discoveryCandidates,
  normaliseDomain,
  tenantIdFromIssuer,
} from './tenant-discovery';
export type {
  DiscoveredTenant,
  OpenIdConfiguration,
  TenantDiscoveryOptions,
} from './tenant-discovery';
export { checkSigningKeys } from './signing-keys';
