export * from './period';
export * from './customer-report';
export * from './records';
export * from './outcome-event';
