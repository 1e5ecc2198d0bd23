export * from './session';
export * from './stream';
export * from './projects';
export * from './app-tables';
export * from './comparison';
export * from './backups';
export * from './capture';
export * from './onboarding';
