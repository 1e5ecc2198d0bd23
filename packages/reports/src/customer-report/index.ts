export * from './types';
export * from './definition';
export * from './facts';
export * from './sample-input';
