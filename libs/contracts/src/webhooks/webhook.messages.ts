import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { TextLength } from '../fields/text-length';
import { reply, rpc } from '../rpc/contract';
import { ConsoleRecordMessage, ConsoleWorkspaceMessage } from '../rpc/messages';
import {
  ConsoleActorRef,
  CreateEndpointBody,
  CreateWebhookInput,
  RotateSecretBody,
  UpdateEndpointBody,
  WebhookDeleteInput,
  WebhookListInput,
  WebhookTestInput,
} from './webhook.inputs';
import type {
  ConsoleEndpointView,
  CreatedConsoleEndpointView,
  CreatedWebhookView,
  SigningSecretView,
  WebhookEndpointView,
  WebhookTestView,
} from './webhook.views';

/**
 * The console's webhook messages (WorkerConsoleRpc). The gateway sets `workspace` to the
 * signed-in member's workspace: every lookup is scoped to it, so an id of another workspace is
 * `not_found`, like an unknown one. The body classes hold what the client sends; the messages
 * add the workspace (and the id of the route).
 */

/** The member field of the console's endpoint writes (optional: the CLI's have none). */
function ActorField(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsObject()(target, key);
    ValidateNested()(target, key);
    Type(() => ConsoleActorRef)(target, key);
  };
}

export class ConsoleEndpointCreateMessage extends CreateEndpointBody {
  @IsString() @TextLength(1, 64) workspace!: string;
  @ActorField() actor?: ConsoleActorRef;
}

export class ConsoleEndpointUpdateMessage extends UpdateEndpointBody {
  @IsString() @TextLength(1, 64) workspace!: string;
  @IsString() @TextLength(1, 64) id!: string;
  @ActorField() actor?: ConsoleActorRef;
}

export class ConsoleEndpointDeleteMessage extends ConsoleRecordMessage {
  @ActorField() actor?: ConsoleActorRef;
}

export class ConsoleSecretRotateMessage extends RotateSecretBody {
  @IsString() @TextLength(1, 64) workspace!: string;
  @IsString() @TextLength(1, 64) id!: string;
  @ActorField() actor?: ConsoleActorRef;
}

/** The endpoints of the worker's admin queue, for the admin CLI (WorkerAdminRpc). */
export const WEBHOOK_ADMIN_RPC = {
  webhookCreate: rpc('admin.webhook.create', CreateWebhookInput, reply<CreatedWebhookView>()),
  webhookList: rpc('admin.webhook.list', WebhookListInput, reply<WebhookEndpointView[]>()),
  webhookTest: rpc('admin.webhook.test', WebhookTestInput, reply<WebhookTestView>()),
  /** Answers the endpoint as it was. */
  webhookDelete: rpc('admin.webhook.delete', WebhookDeleteInput, reply<WebhookEndpointView>()),
};

/** The console's endpoints, on the worker's admin queue (WorkerConsoleRpc). */
export const WEBHOOK_CONSOLE_RPC = {
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
  /** Answers the endpoint as it was. */
  endpointDelete: rpc(
    'console.webhook.delete',
    ConsoleEndpointDeleteMessage,
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
  endpointTest: rpc('console.webhook.test', ConsoleRecordMessage, reply<WebhookTestView>()),
};
