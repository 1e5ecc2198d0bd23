export * from './app';
export * from './config';
export { NotificationRouting } from './services/notification-routing';
