export * from './usage.constants';
export * from './usage.views';
