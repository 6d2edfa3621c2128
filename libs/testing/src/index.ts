export * from './http';
export * from './test-database';
export * from './redis-server';
export * from './webhook-receiver';
export * from './schema-check';
export * from './response-observer';
export * from './contract';
