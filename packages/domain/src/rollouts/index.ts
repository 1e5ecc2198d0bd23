export * from './rollout';
export * from './plan';
