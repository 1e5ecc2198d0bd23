export * from './app-deploy-onboarding';
export * from './regions';
export * from './roles';
export * from './tenant-onboarding';
