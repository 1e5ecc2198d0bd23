export * from './parameters';
export * from './layers';
