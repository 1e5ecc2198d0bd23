export * from './formatting';
export * from './break-points';
export * from './file-names';
