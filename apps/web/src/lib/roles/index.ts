export * from './use-roles';
