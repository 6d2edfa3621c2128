export * from './catalog.views';
export * from './event.catalog';
export * from './event.constants';
export * from './event.envelope';
export * from './event-feed';
