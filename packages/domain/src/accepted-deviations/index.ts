export * from './accepted-deviations';
export * from './critical-acceptance';
