import type { Permission, paths } from '@custodian/console-client';
import createClient from 'openapi-fetch';
import { ApiFailure, NETWORK_MESSAGE, failureFromAnswer } from './failure';
import { retryingFetch } from './retrying-fetch';

/**
 * The one client of the console API (same origin, under /console/api). Its paths and bodies
 * come from libs/console-client's schema.d.ts, so a regenerated schema shows every call that
 * no longer matches as a compile error.
 */
export const client = createClient<paths>({
  baseUrl: '',
  credentials: 'same-origin',
  fetch: retryingFetch(),
});

let csrfToken = '';
/** The password again, for the next write only (the API's recent sign-in: PasswordCheck). */
let confirmation = '';

/** Sends `password` as `x-confirm-password` with the next request that changes state. */
export function confirmWithPassword(password: string): void {
  confirmation = password;
}

/** Every session the API returns carries the token that state-changing requests must echo. */
export function rememberCsrfToken(token: string): void {
  csrfToken = token;
}

/** The routes that sign in or accept an invitation: retried by the person, never by fetch. */
const SIGNING_IN = /^\/console\/api\/(sign-in|invitations\/accept)/;

/**
 * 128 random bits as hex. Not crypto.randomUUID: browsers offer it on secure origins only,
 * and a console served over plain HTTP on a private network must still write.
 */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

client.use({
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      request.headers.set('x-csrf-token', csrfToken);
      if (confirmation) request.headers.set('x-confirm-password', confirmation);
      confirmation = '';
      // One key per write, kept by its retries (retrying-fetch.ts): applied once. Not for
      // signing in: a retried password check would count as another attempt.
      if (
        !request.headers.has('idempotency-key') &&
        !SIGNING_IN.test(new URL(request.url).pathname)
      ) {
        request.headers.set('idempotency-key', newIdempotencyKey());
      }
    }
    return request;
  },
});

/** A record as read, with its entity tag (`ETag`): what an If-Match sends back. */
export interface Versioned<T> {
  record: T;
  /** Null only when the API answered without one. */
  etag: string | null;
}

/** As `send`, keeping the answer's ETag beside its data (a form that writes it back). */
export async function sendVersioned<T>(
  action: string,
  pending: Promise<Answer<T>>,
  needs: Permission | null = null,
): Promise<Versioned<T>> {
  let etag: string | null = null;
  const record = await send(
    action,
    pending.then((answer) => {
      etag = answer.response.headers.get('etag');
      return answer;
    }),
    needs,
  );
  return { record, etag };
}

/** The header of a write made only if the record is still the version read. */
export function ifMatch(etag: string | null | undefined): Record<string, string> {
  return etag ? { 'if-match': etag } : {};
}

type RefusalListener = (status: 401 | 403) => void;
const refusalListeners = new Set<RefusalListener>();

/**
 * Called on every 401 and 403: the session may have expired, the role changed or the CSRF
 * token rotated, so the session is read again (and a signed-out person sent to sign in).
 */
export function onRefusal(listener: RefusalListener): () => void {
  refusalListeners.add(listener);
  return () => refusalListeners.delete(listener);
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful answer, else an ApiFailure: the API's message, or the network
 * sentence when no answer came. `action` finishes "Your role (manager) cannot …", and `needs`
 * is the permission it takes (none for the session's own routes).
 */
export async function send<T>(
  action: string,
  pending: Promise<Answer<T>>,
  needs: Permission | null = null,
): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await pending;
  } catch (error) {
    const detail = error instanceof Error ? error.message : NETWORK_MESSAGE;
    throw new ApiFailure(action, null, detail, needs);
  }
  const { status } = answer.response;
  if (answer.response.ok) return answer.data as T;
  if (status === 401 || status === 403) refusalListeners.forEach((listener) => listener(status));
  throw failureFromAnswer(action, status, answer.error, needs);
}
