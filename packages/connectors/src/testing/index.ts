// Contract suites of the connectors, to run against anything that answers as the service does
// (ADR 076): the emulators run them against themselves.
export { describeArmClientContract, type ArmContractTarget } from './arm-client-contract';
export {
  describeGraphClientContract,
  type GraphContractTarget,
  type GraphContractTenant,
} from './graph-client-contract';
export { describeDiscoveryContract, type DiscoveryContractTarget } from './discovery-contract';
export { describeDevOpsClientContract, type DevOpsContractTarget } from './devops-client-contract';
export { requestUrl } from './request-url';
