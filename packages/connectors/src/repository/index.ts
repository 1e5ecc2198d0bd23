export * from './config-repository';
