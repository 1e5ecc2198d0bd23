export * from './config-repository';
export * from './effective-baseline';
