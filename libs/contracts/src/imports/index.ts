export * from './import.constants';
export * from './import.inputs';
export * from './import.messages';
export * from './import.views';
