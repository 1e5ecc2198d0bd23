export * from './errors';
export * from './clients';
