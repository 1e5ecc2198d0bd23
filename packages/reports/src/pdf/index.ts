export * from './render';
export * from './theme';
export * from './blocks';
export * from './format';
export * from './image';
export * from './not-captured';
