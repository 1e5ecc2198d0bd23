export * from './types';
export * from './catalogue';
export * from './run-standard-baseline';
export { indexClientConfig } from './access';
