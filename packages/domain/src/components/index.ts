export * from './catalogue';
export * from './selection';
