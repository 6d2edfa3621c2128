export * from './custom-field.constants';
export * from './custom-field.inputs';
export * from './custom-field.views';
