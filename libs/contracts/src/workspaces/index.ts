// The map entries (workspace.messages.ts) are composed into GatewayAdminRpc by rpc/queues.ts.
export * from './key.constants';
export * from './key.inputs';
export * from './key.views';
export * from './plan.constants';
export * from './plan.events';
export * from './plan.facts';
export * from './plan.views';
export * from './workspace.inputs';
export * from './workspace.views';
