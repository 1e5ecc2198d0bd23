export * from './fleet';
export * from './client-summary';
