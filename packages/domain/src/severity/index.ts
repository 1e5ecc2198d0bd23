export * from './severity';
