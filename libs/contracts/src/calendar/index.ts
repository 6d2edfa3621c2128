export * from './calendar.constants';
export * from './calendar.inputs';
export * from './calendar.views';
