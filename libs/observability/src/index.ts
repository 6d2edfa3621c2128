// Logging set-up and health indicators shared by the apps.
export * from './logging';
export * from './health';
export * from './request-context';
export * from './metrics';
export * from './ops.controller';
export * from './app-metrics';
export * from './tracing';
