export * from './compliance-gate';
