export * from './health.views';
