export * from './assets';
export * from './caller-context';
export * from './errors';
export * from './events';
export * from './patterns';
export * from './plans';
export * from './admin';
