/** Queue names and message patterns; every app and the admin CLI take them from here. */
export const REGISTER_RPC_QUEUE = 'custodian.register.rpc';
export const GATEWAY_ADMIN_QUEUE = 'custodian.gateway.admin';
export const REGISTER_ADMIN_QUEUE = 'custodian.register.admin';
export const WORKER_ADMIN_QUEUE = 'custodian.webhook-worker.admin';
export const EVENTS_EXCHANGE = 'custodian.events';

export const RegisterPatterns = {
  assetsList: 'assets.list',
  assetsCreate: 'assets.create',
  assetsGet: 'assets.get',
  assetsUpdate: 'assets.update',
  peopleList: 'people.list',
  peopleCreate: 'people.create',
  peopleGet: 'people.get',
  peopleUpdate: 'people.update',
  membersList: 'members.list',
  membersInvite: 'members.invite',
  membersUpdate: 'members.update',
} as const;

/** Console work the register owns, reached by the admin CLI. */
export const RegisterAdminPatterns = {
  customFieldCreate: 'admin.customfield.create',
  invitationList: 'admin.invitation.list',
  invitationAccept: 'admin.invitation.accept',
  ownerCreate: 'admin.member.owner',
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

/** Console work the webhook-worker owns (endpoints, Test ping, delivery log). */
export const WorkerAdminPatterns = {
  webhookCreate: 'admin.webhook.create',
  webhookList: 'admin.webhook.list',
  webhookTest: 'admin.webhook.test',
  deliveries: 'admin.deliveries',
} as const;

export type RegisterPattern = (typeof RegisterPatterns)[keyof typeof RegisterPatterns];
export type GatewayAdminPattern = (typeof GatewayAdminPatterns)[keyof typeof GatewayAdminPatterns];
export type RegisterAdminPattern =
  (typeof RegisterAdminPatterns)[keyof typeof RegisterAdminPatterns];
export type WorkerAdminPattern = (typeof WorkerAdminPatterns)[keyof typeof WorkerAdminPatterns];
