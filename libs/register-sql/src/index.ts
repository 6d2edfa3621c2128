export * from './asset-columns';
export * from './like-pattern';
