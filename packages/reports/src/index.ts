export * from './comparison-report';
