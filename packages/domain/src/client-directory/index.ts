export * from './known-clients';
