export * from './catalog';
export * from './limits';
