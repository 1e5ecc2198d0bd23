export * from './session';
export * from './projects';
export * from './app-tables';
export * from './comparison';
export * from './backups';
