import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { TextLength } from './fields/text-length';
import {
  ChangeLimitsInput,
  ChangePlanInput,
  CreateKeyInput,
  CreateWorkspaceInput,
  RevokeKeyInput,
  WorkspaceRefInput,
  type CreatedKeyView,
  type KeyView,
  type RevokedKeyView,
  type WorkspaceView,
} from './admin';
import {
  CreateAssetInput,
  OverdueSweepInput,
  UpdateAssetInput,
  type AssetDetail,
  type OverdueSweepView,
  type Page,
  type RawQuery,
} from './assets';
import {
  IsCallerContext,
  hasExactly,
  isCallerContext,
  isRecord,
  type CallerContext,
} from './caller-context';
import { CreateCustomFieldInput, type CustomFieldView } from './custom-fields';
import {
  InvitationAcceptInput,
  InvitationListInput,
  InvitationRenewInput,
  InviteMemberInput,
  MemberRemoveInput,
  MemberRoleInput,
  OwnerCreateInput,
  UpdateMemberInput,
  type InvitationView,
  type MemberView,
  type RenewedInvitationView,
} from './members';
import { CreatePersonInput, UpdatePersonInput, type PersonDetail } from './people';
import type { WorkspaceUsageCounts } from './plans';
import type { AssetSummary, DeletedAsset, PersonSummary, ScannedAsset } from './models';
import { TextField } from './fields/field.decorators';
import { ActivityListMessage, type ActivityEntry } from './activity';
import {
  ConsoleEndpointCreateMessage,
  ConsoleEndpointUpdateMessage,
  ConsoleRecordMessage,
  ConsoleSecretRotateMessage,
  ConsoleWorkspaceMessage,
  DeliveriesResendMessage,
  DeliverySearchMessage,
  type ConsoleEndpointView,
  type CreatedConsoleEndpointView,
  type DeliveriesResentView,
  type DeliveryDetailView,
  type DeliverySearchView,
  type DeliverySummaryView,
  type SigningSecretView,
} from './console-webhooks';
import { patternsOf, reply, rpc } from './rpc/contract';
import { RawJson } from './rpc/raw-json';
import {
  EmailInput,
  MemberRefInput,
  PasswordSignInInput,
  SetPasswordInput,
  SignInLinkInput,
  SignInTokenInput,
  type PasswordSetView,
  type SignInIdentity,
  type SignInLinkView,
} from './sign-in';
import {
  CreateWebhookInput,
  DeliveriesInput,
  WebhookListInput,
  WebhookTestInput,
  type CreatedWebhookView,
  type DeliveryLogEntry,
  type WebhookEndpointView,
  type WebhookTestView,
} from './webhooks';

/** Queue and exchange names; every app and the admin CLI take them from here. */
export const REGISTER_RPC_QUEUE = 'custodian.register.rpc';
/**
 * The lane of a queue for its heavy messages (RpcContract.heavy): lists and searches wait
 * there, never ahead of a fetch or a write in the queue itself. Named after the queue, so
 * whatever names the queue (a test's, a benchmark's) names its lane too.
 */
export function heavyLaneOf(queue: string): string {
  return `${queue}.heavy`;
}
export const GATEWAY_ADMIN_QUEUE = 'custodian.gateway.admin';
export const REGISTER_ADMIN_QUEUE = 'custodian.register.admin';
export const WORKER_ADMIN_QUEUE = 'custodian.webhook-worker.admin';
export const EVENTS_EXCHANGE = 'custodian.events';

/**
 * The property of a message that carries the client's JSON body. The consumer's validation
 * pipe names fields relative to it (`name must be a string`, not `body.name ...`), as the
 * client wrote them.
 */
export const CLIENT_BODY = 'body';

/**
 * A message class may also say, in plain code, that a value is a valid message of it
 * (`static accepts`, its own, not inherited). The reads of the register's queue do: they come
 * at thousands a second, and class-transformer plus class-validator cost them about a tenth of
 * the register's CPU in the reads benchmark. ContractValidationPipe passes what `accepts`
 * and still runs the decorators on the rest, which also words the refusal.
 */
export interface AcceptsInPlainCode {
  accepts(value: unknown): boolean;
}

/** Every message on the register's API queue: the caller the gateway resolved. */
export class CallerMessage {
  @IsCallerContext() caller!: CallerContext;

  static accepts(value: unknown): boolean {
    return isRecord(value) && hasExactly(value, ['caller']) && isCallerContext(value.caller);
  }
}

/** A message about one record of the caller's workspace, by id. */
export class RecordMessage extends CallerMessage {
  @IsString() id!: string;

  static override accepts(value: unknown): boolean {
    return (
      isRecord(value) &&
      hasExactly(value, ['caller', 'id']) &&
      typeof value.id === 'string' &&
      isCallerContext(value.caller)
    );
  }
}

/** A list route's query strings as the client sent them; the register parses them. */
/** The longest tag a bare array's bytes carry (RawJson.tag, ListMessage.known). */
export const LIST_TAG_MAX = 100;

export class ListMessage extends CallerMessage {
  @IsObject() query!: RawQuery;

  /**
   * The tag of the bare array's bytes the caller holds (RawJson.tag): when they are still
   * current, the reply is ListUnchanged instead of the bytes. Ignored for a page.
   */
  @IsOptional() @IsString() @TextLength(1, LIST_TAG_MAX) known?: string;

  static override accepts(value: unknown): boolean {
    return (
      isRecord(value) &&
      (hasExactly(value, ['caller', 'query']) ||
        (hasExactly(value, ['caller', 'query', 'known']) &&
          typeof value.known === 'string' &&
          value.known.length <= LIST_TAG_MAX)) &&
      isRecord(value.query) &&
      isCallerContext(value.caller)
    );
  }
}

export class CreateAssetMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreateAssetInput) body!: CreateAssetInput;
}

export class UpdateAssetMessage extends RecordMessage {
  @ValidateNested() @Type(() => UpdateAssetInput) body!: UpdateAssetInput;
}

/** A code as a barcode scanner typed it: an asset tag or a serial number. */
export class ScanAssetMessage extends CallerMessage {
  @TextField({ min: 1, max: 200, notBlank: true }) code!: string;
}

export class CreatePersonMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreatePersonInput) body!: CreatePersonInput;
}

export class UpdatePersonMessage extends RecordMessage {
  @ValidateNested() @Type(() => UpdatePersonInput) body!: UpdatePersonInput;
}

export class InviteMemberMessage extends CallerMessage {
  @ValidateNested() @Type(() => InviteMemberInput) body!: InviteMemberInput;
}

export class UpdateMemberMessage extends RecordMessage {
  @ValidateNested() @Type(() => UpdateMemberInput) body!: UpdateMemberInput;
}

/** A message that changes nothing (RpcContract.readOnly). */
const READ = { readOnly: true };
/** A read whose cost grows with the workspace: a list or a search (RpcContract.heavy). */
const LIST = { readOnly: true, heavy: true };

/**
 * The reply to a list request that quoted the tag of bytes still current (ListMessage.known):
 * the caller may answer its copy (ADR 0014, "The unpaged array").
 */
export interface ListUnchanged {
  unchanged: string;
}

/**
 * A list's reply: the page with `page`, else the bare array as its JSON bytes, made once in the
 * register and passed through by the gateway as they are, tagged with what they show; or,
 * to a request that quoted a tag still current, ListUnchanged (ADR 0014, "The unpaged array").
 */
export type ListReply<T> = Page<T> | RawJson<T[]> | ListUnchanged;

/** True when a list's reply says the caller's copy is still current. */
export function isListUnchanged(reply: unknown): reply is ListUnchanged {
  return (
    typeof reply === 'object' &&
    reply !== null &&
    !(reply instanceof RawJson) &&
    typeof (reply as Partial<ListUnchanged>).unchanged === 'string'
  );
}

/** The register's API queue: the public API's assets, people and members. */
export const RegisterRpc = {
  assetsList: rpc('assets.list', ListMessage, reply<ListReply<AssetSummary>>(), LIST),
  assetsGet: rpc('assets.get', RecordMessage, reply<AssetDetail>(), READ),
  assetsCreate: rpc('assets.create', CreateAssetMessage, reply<AssetDetail>()),
  assetsUpdate: rpc('assets.update', UpdateAssetMessage, reply<AssetDetail>()),
  /** Soft delete (the console's): refused while the asset is checked out. */
  assetsDelete: rpc('assets.delete', RecordMessage, reply<DeletedAsset>()),
  assetsRestore: rpc('assets.restore', RecordMessage, reply<AssetDetail>()),
  /** The workspace's deleted assets, most recently deleted first (DELETED_ASSETS_SHOWN). */
  assetsDeleted: rpc('assets.deleted', CallerMessage, reply<DeletedAsset[]>(), READ),
  assetsScan: rpc('assets.scan', ScanAssetMessage, reply<ScannedAsset>()),
  peopleList: rpc('people.list', ListMessage, reply<ListReply<PersonSummary>>(), LIST),
  peopleGet: rpc('people.get', RecordMessage, reply<PersonDetail>(), READ),
  peopleCreate: rpc('people.create', CreatePersonMessage, reply<PersonDetail>()),
  peopleUpdate: rpc('people.update', UpdatePersonMessage, reply<PersonDetail>()),
  membersList: rpc('members.list', CallerMessage, reply<MemberView[]>(), READ),
  membersInvite: rpc('members.invite', InviteMemberMessage, reply<MemberView>()),
  membersUpdate: rpc('members.update', UpdateMemberMessage, reply<MemberView>()),
};

/**
 * Console work the register owns, reached by the admin CLI and the gateway (which also signs
 * console users in through it).
 */
export const RegisterAdminRpc = {
  customFieldCreate: rpc(
    'admin.customfield.create',
    CreateCustomFieldInput,
    reply<CustomFieldView>(),
  ),
  /** The workspace's custom fields, oldest first (the console's asset form). */
  customFieldList: rpc('admin.customfield.list', WorkspaceRefInput, reply<CustomFieldView[]>()),
  invitationList: rpc('admin.invitation.list', InvitationListInput, reply<InvitationView[]>()),
  invitationRenew: rpc(
    'admin.invitation.renew',
    InvitationRenewInput,
    reply<RenewedInvitationView>(),
  ),
  invitationAccept: rpc('admin.invitation.accept', InvitationAcceptInput, reply<MemberView>()),
  ownerCreate: rpc('admin.member.owner', OwnerCreateInput, reply<MemberView>()),
  signInLink: rpc('admin.signin.link', SignInLinkInput, reply<SignInLinkView>()),
  signInRedeem: rpc('admin.signin.redeem', SignInTokenInput, reply<SignInIdentity>()),
  signInPassword: rpc('admin.signin.password', PasswordSignInInput, reply<SignInIdentity>()),
  passwordSet: rpc('admin.password.set', SetPasswordInput, reply<PasswordSetView>()),
  memberships: rpc('admin.member.memberships', EmailInput, reply<SignInIdentity>()),
  memberGet: rpc('admin.member.get', MemberRefInput, reply<MemberView>()),
  /** The member as it was; `member.removed` fires, an active one's seat is freed. */
  memberRemove: rpc('admin.member.remove', MemberRemoveInput, reply<MemberView>()),
  /** The member with its new role, bounded by the actor's own role (read in the transaction). */
  memberRole: rpc('admin.member.role', MemberRoleInput, reply<MemberView>()),
  /** A new link for an invited member's open or expired invitation, e-mailed (no token back). */
  invitationResend: rpc('admin.invitation.resend', MemberRemoveInput, reply<MemberView>()),
  /** Tests only: the overdue sweep at a given time (refused unless OVERDUE_TEST_CLOCK=on). */
  overdueSweep: rpc('admin.overdue.sweep', OverdueSweepInput, reply<OverdueSweepView>()),
  /** The workspace's activity entries for the register's records (assets, people, members). */
  activityList: rpc('admin.activity.list', ActivityListMessage, reply<ActivityEntry[]>()),
  /** What the workspace uses of its register limits (the console's Plan and usage). */
  workspaceUsage: rpc(
    'admin.workspace.usage',
    WorkspaceRefInput,
    reply<WorkspaceUsageCounts>(),
    READ,
  ),
};

/** Console work the gateway owns: workspaces, plans and keys. */
export const GatewayAdminRpc = {
  workspaceCreate: rpc(
    'admin.workspace.create',
    CreateWorkspaceInput,
    reply<WorkspaceView & { owner?: MemberView }>(),
  ),
  workspacePlan: rpc('admin.workspace.plan', ChangePlanInput, reply<WorkspaceView>()),
  workspaceLimits: rpc('admin.workspace.limits', ChangeLimitsInput, reply<WorkspaceView>()),
  workspaceGet: rpc('admin.workspace.get', WorkspaceRefInput, reply<WorkspaceView>()),
  keyCreate: rpc('admin.key.create', CreateKeyInput, reply<CreatedKeyView>()),
  keyRevoke: rpc('admin.key.revoke', RevokeKeyInput, reply<RevokedKeyView>()),
  keyList: rpc('admin.key.list', WorkspaceRefInput, reply<KeyView[]>()),
};

/** Console work the webhook-worker owns (endpoints, Test ping, delivery log). */
export const WorkerAdminRpc = {
  webhookCreate: rpc('admin.webhook.create', CreateWebhookInput, reply<CreatedWebhookView>()),
  webhookList: rpc('admin.webhook.list', WebhookListInput, reply<WebhookEndpointView[]>()),
  webhookTest: rpc('admin.webhook.test', WebhookTestInput, reply<WebhookTestView>()),
  deliveries: rpc('admin.deliveries', DeliveriesInput, reply<DeliveryLogEntry[]>()),
};

/**
 * The console's webhooks and delivery log, on the worker's admin queue: the gateway forwards
 * each console route with the signed-in member's workspace, which scopes every lookup.
 */
export const WorkerConsoleRpc = {
  endpointList: rpc(
    'console.webhook.list',
    ConsoleWorkspaceMessage,
    reply<ConsoleEndpointView[]>(),
  ),
  endpointGet: rpc('console.webhook.get', ConsoleRecordMessage, reply<ConsoleEndpointView>()),
  endpointCreate: rpc(
    'console.webhook.create',
    ConsoleEndpointCreateMessage,
    reply<CreatedConsoleEndpointView>(),
  ),
  endpointUpdate: rpc(
    'console.webhook.update',
    ConsoleEndpointUpdateMessage,
    reply<ConsoleEndpointView>(),
  ),
  secretReveal: rpc(
    'console.webhook.secret.reveal',
    ConsoleRecordMessage,
    reply<SigningSecretView>(),
  ),
  secretRotate: rpc(
    'console.webhook.secret.rotate',
    ConsoleSecretRotateMessage,
    reply<SigningSecretView>(),
  ),
  /** The workspace's activity entries for its webhook endpoints. */
  activityList: rpc('console.activity.list', ActivityListMessage, reply<ActivityEntry[]>()),
  endpointTest: rpc('console.webhook.test', ConsoleRecordMessage, reply<WebhookTestView>()),
  deliverySearch: rpc(
    'console.delivery.search',
    DeliverySearchMessage,
    reply<DeliverySearchView>(),
  ),
  deliveryGet: rpc('console.delivery.get', ConsoleRecordMessage, reply<DeliveryDetailView>()),
  deliveryResend: rpc(
    'console.delivery.resend',
    ConsoleRecordMessage,
    reply<DeliverySummaryView>(),
  ),
  deliveriesResend: rpc(
    'console.delivery.resend.bulk',
    DeliveriesResendMessage,
    reply<DeliveriesResentView>(),
  ),
};

/** Pattern names alone, for callers that build messages from strings (the admin CLI). */
export const RegisterPatterns = patternsOf(RegisterRpc);
export const RegisterAdminPatterns = patternsOf(RegisterAdminRpc);
export const GatewayAdminPatterns = patternsOf(GatewayAdminRpc);
export const WorkerAdminPatterns = patternsOf(WorkerAdminRpc);
export const WorkerConsolePatterns = patternsOf(WorkerConsoleRpc);
