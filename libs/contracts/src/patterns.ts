/** Queue names and message patterns; every app and the admin CLI take them from here. */
export const REGISTER_RPC_QUEUE = 'custodian.register.rpc';
export const GATEWAY_ADMIN_QUEUE = 'custodian.gateway.admin';
export const EVENTS_EXCHANGE = 'custodian.events';

export const RegisterPatterns = {
  assetsList: 'assets.list',
  assetsCreate: 'assets.create',
  assetsGet: 'assets.get',
  assetsUpdate: 'assets.update',
} as const;

export const GatewayAdminPatterns = {
  workspaceCreate: 'admin.workspace.create',
  workspacePlan: 'admin.workspace.plan',
  workspaceLimits: 'admin.workspace.limits',
  workspaceGet: 'admin.workspace.get',
  keyCreate: 'admin.key.create',
  keyRevoke: 'admin.key.revoke',
  keyList: 'admin.key.list',
} as const;

export type RegisterPattern = (typeof RegisterPatterns)[keyof typeof RegisterPatterns];
export type GatewayAdminPattern = (typeof GatewayAdminPatterns)[keyof typeof GatewayAdminPatterns];
