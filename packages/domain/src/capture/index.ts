export * from './branches';
export * from './relative-dates';
export * from './review-workflow';
export * from './review-analysis';
export * from './capture-run';
export * from './manifest';
