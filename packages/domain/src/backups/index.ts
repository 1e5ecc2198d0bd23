export * from './constants';
export * from './tags';
export * from './health';
export * from './filters';
export * from './size';
export * from './compare-backup';
export type * from './types';
