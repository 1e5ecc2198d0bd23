export * from './use-pipeline-run';
export * from './project-run';
export * from './run-log';
