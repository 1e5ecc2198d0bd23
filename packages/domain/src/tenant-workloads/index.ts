export * from './workloads';
export * from './permissions';
