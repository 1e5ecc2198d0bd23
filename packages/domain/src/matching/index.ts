export * from './policy-kind';
export * from './similarity';
export * from './matches';
