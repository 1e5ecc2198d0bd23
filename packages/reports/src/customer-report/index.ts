export * from './types';
export * from './definition';
export * from './sample-input';
