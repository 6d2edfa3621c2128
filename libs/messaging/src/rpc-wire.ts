import type { RpcErrorPayload } from '@custodian/contracts';

/** A request on an RPC queue. The reply goes to `replyTo` with the same correlation id. */
export interface RpcRequestMessage {
  pattern: string;
  data: unknown;
}

export type RpcReplyMessage = { ok: true; response: unknown } | { ok: false; err: RpcErrorPayload };

/** RabbitMQ's direct reply-to pseudo-queue: no queue declared per client, no round trip. */
export const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';
