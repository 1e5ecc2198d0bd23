export * from './pipelines';
export * from './catalogue';
export * from './run-status';
export * from './identifiers';
export * from './run-log-lines';
export * from './run-log-findings';
