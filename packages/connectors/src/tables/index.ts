export * from './create-tables-client';
export * from './tables-client';
export * from './types';
export * from './shared-rows';
export * from './fleet-summaries';
export * from './fleet-deviation-index';
