export * from './compliance-report';
