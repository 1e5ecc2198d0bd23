export * from './service-error';
export * from './http';
export * from './retry';
export * from './reachability';
export * from './telemetry';
export * from './azure-sdk-pipeline';
export * from './upstream-errors';
