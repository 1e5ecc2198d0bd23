export * from './formatting';
export * from './break-points';
