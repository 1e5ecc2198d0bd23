export * from './identity-provider';
export * from './staff-accounts';
export * from './tenant-directory';
export * from './token-verifier';
export * from './tenant-world-directory';
