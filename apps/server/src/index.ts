export * from './app';
export * from './config';
export { NotificationRouting } from './services/notification-routing';
export { CustomerReportStore } from './services/customer-report-store';
export { WorkerSummarizer } from './services/fleet-summarizer';
