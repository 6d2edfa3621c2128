export * from './custody.events';
export * from './custody.inputs';
export * from './custody.views';
