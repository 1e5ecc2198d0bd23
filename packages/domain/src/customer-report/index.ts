export * from './period';
export * from './customer-report';
