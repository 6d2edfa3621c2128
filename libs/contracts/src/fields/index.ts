export * from './contract-schema.decorator';
export * from './field.decorators';
export * from './contract-errors';
export * from './text-length';
