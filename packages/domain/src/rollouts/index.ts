export * from './rollout';
