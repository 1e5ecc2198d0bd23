export * from './image-format';
