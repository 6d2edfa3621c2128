import type { RpcErrorPayload } from '@custodian/contracts';

/** A request on an RPC queue. The reply goes to `replyTo` with the same correlation id. */
export interface RpcRequestMessage {
  /**
   * Unique per request, kept on every redelivery: a server that applies writes stores it with
   * them, so a request handed over twice is applied once (its stored reply answers the repeat).
   */
  id?: string;
  /** With an id taken from a client's Idempotency-Key: a hash of what the request asked. */
  fingerprint?: string;
  /** With an Idempotency-Key: the id the version before derived from it (RpcRequestContext). */
  formerId?: string;
  pattern: string;
  data: unknown;
  /** Epoch ms after which the caller no longer waits; the server then skips the request. */
  deadline?: number;
}

export type RpcReplyMessage = { ok: true; response: unknown } | { ok: false; err: RpcErrorPayload };

/** RabbitMQ's direct reply-to pseudo-queue: no queue declared per client, no round trip. */
export const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

/**
 * The header of a reply whose body is the handler's RawJson as it is, not an RpcReplyMessage:
 * a successful reply only (errors keep the envelope), sent without serialising it again and
 * handed to the caller without parsing it.
 */
export const RAW_REPLY_HEADER = 'x-reply';
export const RAW_REPLY_JSON = 'raw-json';

/** The header that carries a RawJson reply's tag (RawJson.tag), when it has one. */
export const RAW_REPLY_TAG = 'x-tag';
