export * from './use-pipeline-run';
