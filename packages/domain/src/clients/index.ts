export * from './client-code';
