export * from './pipelines';
