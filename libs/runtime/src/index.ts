export * from './config';
export * from './database';
export * from './ids';
export * from './logging';
export * from './validation';
export * from './contract-validation.pipe';
export * from './health';
export * from './rpc-domain-error.filter';
