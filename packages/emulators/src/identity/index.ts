export * from './identity-provider';
export * from './staff-accounts';
export * from './token-verifier';
