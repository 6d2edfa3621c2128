export * from './sign-in.constants';
export * from './sign-in.inputs';
export * from './sign-in.views';
