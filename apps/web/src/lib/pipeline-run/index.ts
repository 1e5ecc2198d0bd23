export * from './use-pipeline-run';
export * from './project-run';
