// Each app's environment, parsed into one validated, typed object at start.
export * from './config';
