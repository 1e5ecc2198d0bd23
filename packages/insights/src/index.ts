// What the screens show, read and computed in one place (issue 29, ADR 089): the server's routes
// and the pipeline tasks (the customer report) use the same code, so their figures agree (ADR 067).
export * from './audit-trail';
export * from './capture-branches';
export * from './comparison-service';
export * from './compliance-service';
export * from './compliance-store';
export * from './customer-report-renderer';
export * from './customer-report-service';
export * from './customer-report-sources';
export * from './fleet-service';
export * from './fleet-summarizer';
