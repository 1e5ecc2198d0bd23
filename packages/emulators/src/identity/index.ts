export * from './identity-provider';
export * from './staff-accounts';
