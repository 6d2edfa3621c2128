import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header that names a request, on HTTP responses and on every message it causes. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a client may choose as its request id: up to 128 characters that are safe in a log
 * line and a header (letters, digits and `._:+=@/-`, starting with a letter or digit). A UUID,
 * a ULID or a W3C trace id all fit; anything else is replaced by an id of ours rather than
 * refused, as the request itself is fine.
 */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:+=@/-]{0,127}$/;

/** The value, if it is a well-formed request id. */
export function wellFormedRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && WELL_FORMED.test(value) ? value : undefined;
}

export function newRequestId(): string {
  return randomUUID();
}

/**
 * The headers that carry a request's context across a hop (an RPC message, an outbox row and
 * the event published from it, a stored delivery): only names this module knows, each
 * well-formed.
 */
export type MessageContext = Record<string, string>;

interface RequestScope {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `work` as part of the request `requestId` names; without one, outside any request. */
export function runWithRequestId<T>(requestId: string | undefined, work: () => T): T {
  return requestId === undefined ? storage.exit(work) : storage.run({ requestId }, work);
}

/** The id of the request this code runs for, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** The current request's context, to send along with a message; undefined outside one. */
export function currentMessageContext(): MessageContext | undefined {
  const requestId = currentRequestId();
  return requestId === undefined ? undefined : { [REQUEST_ID_HEADER]: requestId };
}

/**
 * The context carried by a message's headers (AMQP headers, a stored jsonb), or undefined when
 * they carry none: unknown names and malformed values are dropped, never trusted.
 */
export function messageContextFrom(headers: unknown): MessageContext | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const requestId = wellFormedRequestId((headers as Record<string, unknown>)[REQUEST_ID_HEADER]);
  return requestId === undefined ? undefined : { [REQUEST_ID_HEADER]: requestId };
}

/** Runs `work` in the request a message's context names (outside any, when it names none). */
export function runInMessageContext<T>(context: unknown, work: () => T): T {
  return runWithRequestId(messageContextFrom(context)?.[REQUEST_ID_HEADER], work);
}

/** For log lines: `{ requestId }` inside a request, nothing outside one. */
export function requestLogFields(): { requestId?: string } {
  const requestId = currentRequestId();
  return requestId === undefined ? {} : { requestId };
}
