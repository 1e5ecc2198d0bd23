export * from './accepted-deviations';
