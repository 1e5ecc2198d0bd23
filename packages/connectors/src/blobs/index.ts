export * from './types';
export * from './blobs-client';
export * from './create-blobs-client';
