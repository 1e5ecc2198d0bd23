export {
  ARM_API_VERSIONS,
  ARM_BASE_URL,
  ARM_SCOPE,
  AZURE_ROLE_IDS,
  ArmClient,
  parseArmError,
  resourceTypeOf,
} from './arm-client';
export type {
  ArmClientOptions,
  ArmList,
  ArmRequestOptions,
  CreateRoleAssignment,
  RoleAssignment,
  RoleAssignmentOutcome,
  RoleDefinition,
  Subscription,
} from './arm-client';
