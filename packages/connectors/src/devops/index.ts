export {
  DEVOPS_API_VERSION,
  DEVOPS_RESOURCE,
  DEVOPS_SCOPE,
  DevOpsClient,
  MINIMUM_REVIEWERS_POLICY_TYPE,
  projectIdFromSelfLink,
  ZERO_OBJECT_ID,
} from './devops-client';
export type * from './types';
export { checkDevOpsOrganization } from './reachability';
