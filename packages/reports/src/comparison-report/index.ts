export * from './types';
export * from './format';
export * from './summarise';
export * from './definition';
export * from './create-pdf';
export * from './adapters';
