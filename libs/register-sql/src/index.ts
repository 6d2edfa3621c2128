export * from './asset-columns';
export * from './like-pattern';
export * from './list-sql';
