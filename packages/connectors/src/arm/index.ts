export {
  ARM_BASE_URL,
  AZURE_ROLE_IDS,
  ArmClient,
  RESOURCES_API_VERSION,
  parseArmError,
  toArmServiceError,
} from './arm-client';
export type {
  ArmClientOptions,
  ArmResource,
  CreateRoleAssignment,
  RoleAssignment,
  RoleAssignmentOutcome,
  Subscription,
} from './arm-client';
