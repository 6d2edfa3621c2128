import type { RpcErrorPayload } from '@custodian/contracts';

/** A request on an RPC queue. The reply goes to `replyTo` with the same correlation id. */
export interface RpcRequestMessage {
  pattern: string;
  data: unknown;
  /** Epoch ms after which the caller no longer waits; the server then skips the request. */
  deadline?: number;
}

export type RpcReplyMessage = { ok: true; response: unknown } | { ok: false; err: RpcErrorPayload };

/** RabbitMQ's direct reply-to pseudo-queue: no queue declared per client, no round trip. */
export const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';
