export * from './drift';
export * from './audit-logs';
export * from './drift-check';
export * from './drift-rows';
