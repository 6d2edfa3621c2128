export * from './connection';
export * from './rpc-client';
export * from './rpc-server';
export * from './rpc-wire';
export * from './managed-connection';
export * from './outbox-relay';
export * from './rpc-peer';
export * from './handles.decorator';
