export * from './constants';
export * from './paths';
export * from './exclusions';
export * from './diff-documents';
export * from './compare-trees';
export * from './json-content';
export type * from './types';
