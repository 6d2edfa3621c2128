import { DomainError } from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { RequestWithAccess } from '../access/access-hook';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Visible ASCII and spaces, as Stripe's keys (a UUID fits with room to spare). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/**
 * Who an Idempotency-Key belongs to: the API key that sent it (`key:<id>`) or the console
 * member (`member:<id>`), within the workspace. Two integrations of one workspace, each with
 * its own API key, may pick the same key (a sequence number, a record id of theirs) without
 * one being answered with the other's reply.
 */
export interface IdempotencyOwner {
  workspaceId: string;
  sender: `key:${string}` | `member:${string}`;
}

/**
 * What a client's Idempotency-Key makes of a request, or nothing without one:
 *
 * - the RPC request id, the same for every request of the sender with that key, so the
 *   register (or the worker) applies the first and answers every repeat with its stored reply;
 * - a fingerprint of the method, path and body (keys sorted, so their order does not matter),
 *   so the key reused for another request is refused (422) instead of answered with a reply
 *   to something else;
 * - for an API key, `formerId`: the id the version before derived from the workspace and key
 *   alone. The register looks it up when the new id has no record, so a client's retry of a
 *   request applied just before the upgrade is not applied again. Records live 24 hours
 *   (IDEMPOTENCY_WINDOW_MS): `formerId` can go in the release after the one that brought it.
 */
export function idempotentRequest(
  owner: IdempotencyOwner,
  key: string | undefined,
  method: string,
  path: string,
  body: unknown,
): RequestIdentity | undefined {
  if (key === undefined) return undefined;
  if (!KEY_PATTERN.test(key) || key.trim() === '') {
    throw new DomainError(
      'invalid_input',
      'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice)',
    );
  }
  return {
    id: `idem_${sha256(`${owner.workspaceId}\n${owner.sender}\n${key}`)}`,
    fingerprint: sha256(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`),
    ...(owner.sender.startsWith('key:')
      ? { formerId: `idem_${sha256(`${owner.workspaceId}\n${key}`)}` }
      : {}),
  };
}

interface RequestWithHeaders {
  headers: Record<string, string | string[] | undefined>;
  method: string;
  url: string;
  body?: unknown;
}

/** The request's identity from its Idempotency-Key header, for `owner`. */
export function identityOf(
  request: RequestWithHeaders,
  owner: IdempotencyOwner,
): RequestIdentity | undefined {
  const header = request.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(header) ? header.join(',') : header;
  return idempotentRequest(owner, key, request.method, decodedPath(request.url), request.body);
}

/**
 * The request's identity from its Idempotency-Key (see idempotentRequest), for routes that
 * take one (`@AcceptsIdempotencyKey()` documents it). Undefined without the header.
 */
export const IdempotentRequest = createParamDecorator(
  (_: unknown, context: ExecutionContext): RequestIdentity | undefined => {
    const request = context.switchToHttp().getRequest<RequestWithAccess & RequestWithHeaders>();
    if (!request.access) throw new Error('@IdempotentRequest() used on a route without a key');
    return identityOf(request, {
      workspaceId: request.access.workspaceId,
      sender: `key:${request.access.keyId}`,
    });
  },
);

/**
 * The header in the OpenAPI document of a route that takes it (the route lists 422 among its
 * `@ApiErrors`).
 */
export function AcceptsIdempotencyKey(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes the request safe to retry (beyond the spec; the Stripe convention). Send a ' +
        'unique value (a UUID) per new request, and the same value when retrying it after a ' +
        'network error, 503 or 504: within 24 hours, a request with a key this API key already ' +
        'used is not applied again, and the first answer is returned (a PATCH too: ' +
        'the same change twice fires no second event either way, but its answer is the ' +
        'first one). The same key ' +
        'with a different method, path or body is refused with 422. A request that was ' +
        'refused (4xx) was not applied: retrying it with its key evaluates it again.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    }),
  );
}

/**
 * The path as the router reads it (percent-decoded, no query): `/%61pi/v1/assets/x` and
 * `/api/v1/assets/x` are one request, and their fingerprints must agree. Before, the raw URL
 * was fingerprinted, and the encoded retry of a request was refused (422) as another one.
 */
export function decodedPath(url: string): string {
  const path = url.split('?')[0] ?? url;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with object keys sorted at every level: equal bodies give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
