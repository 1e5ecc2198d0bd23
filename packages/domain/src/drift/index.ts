export * from './drift';
export * from './audit-logs';
