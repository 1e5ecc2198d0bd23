export * from './client-yaml';
export * from './schedules';
