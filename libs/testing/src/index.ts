export * from './http';
export * from './test-database';
