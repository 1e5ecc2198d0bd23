export * from './workloads';
export * from './permissions';
export * from './sharepoint-settings';
