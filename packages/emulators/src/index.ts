export * from './identity';
export * from './azurite';
export * from './seed/app-tables';
