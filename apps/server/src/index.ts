export * from './app';
export * from './config';
export { NotificationRouting } from './services/notification-routing';
export { WorkerSummarizer } from './services/fleet-summarizer';
