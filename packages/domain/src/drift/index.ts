export * from './drift';
