export * from './pdf';
export * from './comparison-report';
export * from './compliance-report';
export * from './customer-report';
