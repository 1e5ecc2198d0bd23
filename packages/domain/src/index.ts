export * from './errors';
export * from './clients';
export * from './app-tables';
