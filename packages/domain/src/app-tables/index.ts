export * from './constants';
export * from './copy-apps';
export * from './new-app-form';
export * from './properties';
export * from './row-key';
export * from './sort';
export * from './table-names';
export * from './types';
