export * from './session.inputs';
export * from './session.permissions';
export * from './session.views';
