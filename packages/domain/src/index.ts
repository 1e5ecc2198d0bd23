export * from './errors';
export * from './clients';
export * from './app-tables';
export * from './severity';
export * from './scores';
export * from './comparison';
export * from './matching';
export * from './pipelines';
