export * from './caller-context';
export * from './error-body';
export * from './errors';
export * from './paging';
export * from './refs';
