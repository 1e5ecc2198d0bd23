export * from './run';
export * from './read-tree';
