export * from './types';
export * from './definition';
