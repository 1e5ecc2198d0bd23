export * from './repository-layout';
