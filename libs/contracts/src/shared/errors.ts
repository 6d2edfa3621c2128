/**
 * Domain error codes shared by every app. Services throw a {@link DomainError}; each transport
 * has one exhaustive mapper from code to its own vocabulary (HTTP status in the gateway).
 */
export type DomainErrorCode =
  | 'invalid_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'limit_reached'
  | 'not_found'
  | 'conflict'
  /** What the request asks for existed once and is gone for good (a feed cursor too old). */
  | 'gone'
  /** An If-Match named a version that is no longer the record's: another write came first. */
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  /** The service is past what it can take on now, and did nothing: retry after a moment. */
  | 'overloaded'
  | 'timeout'
  | 'internal';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** What crosses the broker when a handler fails: the code and the client-facing message. */
export interface RpcErrorPayload {
  code: DomainErrorCode;
  message: string;
}

export function isRpcErrorPayload(value: unknown): value is RpcErrorPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as RpcErrorPayload).code === 'string' &&
    typeof (value as RpcErrorPayload).message === 'string'
  );
}

const STATUS_BY_CODE: Record<DomainErrorCode, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  limit_reached: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  overloaded: 503,
  timeout: 504,
};

/** HTTP reason phrases of the statuses the API answers with; the `error` of an error body. */
export const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusForCode(code: DomainErrorCode): number {
  return STATUS_BY_CODE[code];
}

export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
}
