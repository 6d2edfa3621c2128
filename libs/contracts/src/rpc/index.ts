export * from './contract';
export * from './messages';
export * from './queues';
export * from './raw-json';
