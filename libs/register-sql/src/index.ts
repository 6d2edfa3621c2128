export * from './asset-reads';
export * from './booking-reads';
export * from './like-pattern';
export * from './list-cache';
export * from './location-tree';
export * from './list-sql';
export * from './read-list';
