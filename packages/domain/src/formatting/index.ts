export * from './formatting';
