export * from './constants';
export * from './paths';
export * from './exclusions';
export * from './diff-documents';
export * from './compare-trees';
export type * from './types';
