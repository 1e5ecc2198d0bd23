export * from './policy-kind';
