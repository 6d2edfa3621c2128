import type { Permission } from '@custodian/console-client';

/** What the console says when the request never got an answer. */
export const NETWORK_MESSAGE =
  'Custodian could not be reached. Check your connection and try again.';

/**
 * A console API call that did not succeed. `action` says what the person was doing, in words
 * that finish "Your role (manager) cannot …", and `needs` the permission it takes; `status` is
 * null when no answer came back.
 */
export class ApiFailure extends Error {
  constructor(
    readonly action: string,
    readonly status: number | null,
    message: string,
    readonly needs: Permission | null = null,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

/** The failure of an answer that was not 2xx, with the API's own message when it sent one. */
export function failureFromAnswer(
  action: string,
  status: number,
  body: unknown,
  needs: Permission | null = null,
): ApiFailure {
  const message =
    typeof body === 'object' &&
    body !== null &&
    'message' in body &&
    typeof body.message === 'string'
      ? body.message.trim()
      : '';
  const fallback =
    status === 401
      ? 'You are signed out. Sign in again to continue.'
      : `Custodian could not ${action} (error ${status}). Try again in a moment.`;
  return new ApiFailure(action, status, message || fallback, needs);
}

/** Who is reading: the role and permissions of the session, as far as the console knows. */
export interface Reader {
  role: string | null;
  permissions: readonly Permission[];
}

/** Before the session is known. */
export const NO_READER: Reader = { role: null, permissions: [] };

/** The sentence a person reads for any error a screen caught. */
export function describeFailure(error: unknown, reader: Reader): string {
  if (!(error instanceof ApiFailure)) {
    const detail = error instanceof Error ? error.message : String(error);
    return `Something went wrong in the console: ${detail}`;
  }
  if (error.status === null) return NETWORK_MESSAGE;
  // A 403 to a role that has the permission is not about the role (a stale CSRF token after
  // signing in elsewhere): the API's message says what it is, and the session is read again.
  if (error.status === 403 && !(error.needs && reader.permissions.includes(error.needs))) {
    return reader.role
      ? `Your role (${reader.role}) cannot ${error.action}.`
      : `You cannot ${error.action}.`;
  }
  return error.message;
}
