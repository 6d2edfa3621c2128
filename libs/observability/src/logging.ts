import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import { requestLogFields } from './request-context';

export interface LoggingConfig {
  LOG_LEVEL: string;
  LOG_FORMAT: 'json' | 'pretty';
}

/**
 * Query parameter names whose values are credentials (the invitation link's `token`), or that
 * a client may send a credential in by mistake. Compared with each name as the server's query
 * parser reads it: percent-decoded, `+` as a space, any `[...]` suffix dropped, trimmed and in
 * lower case, so `%74oken=`, `TOKEN=` and `token[]=` are redacted too.
 */
const SECRET_PARAMS = new Set([
  'token',
  'access_token',
  'api_key',
  'apikey',
  'key',
  'x-api-key',
  'secret',
  'password',
  'current_password',
]);

/**
 * A path whose rest is a credential: a calendar feed's URL (`/calendar/<token>.ics`, the
 * gateway's calendar/). Matched on the decoded path, as the router matches it, in any case and
 * after any run of slashes, so no spelling of it reaches a log with its token.
 */
const SECRET_PATH = /^\/+calendar\//i;

/**
 * A URL fit for a log line: the value of every query parameter whose name (parsed, not matched
 * as text) is a credential's is replaced by [Redacted]; a name that does not decode is treated
 * as one. A path that carries a credential (SECRET_PATH) keeps its first segment only. The
 * fragment, which no client sends, is dropped.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  const sentPath = start === -1 ? url : url.slice(0, start);
  const path = isSecretPath(sentPath) ? '/calendar/[Redacted]' : sentPath;
  if (start === -1) return path;
  const end = url.indexOf('#', start);
  const query = url.slice(start + 1, end === -1 ? undefined : end);
  const pairs = query.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    return isSecretName(rawName) ? `${rawName}=[Redacted]` : pair;
  });
  return `${path}?${pairs.join('&')}`;
}

function isSecretPath(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not valid percent-encoding: the router refuses it (400), but it may still be a feed's.
    decoded = path;
  }
  return SECRET_PATH.test(decoded);
}

function isSecretName(raw: string): boolean {
  let name: string;
  try {
    name = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return true;
  }
  return SECRET_PARAMS.has(
    name
      .replace(/\[[^\]]*\]$/, '')
      .trim()
      .toLowerCase(),
  );
}

/**
 * 503 and 504 are answers we give on purpose (a dependency is down, a deadline passed): a
 * warning. Any other 5xx is an error.
 */
export function requestLogLevel(statusCode: number, error?: Error): 'info' | 'warn' | 'error' {
  if (error) return 'error';
  if (statusCode === 503 || statusCode === 504) return 'warn';
  return statusCode >= 500 ? 'error' : 'info';
}

/**
 * pino-http attaches `new Error('failed with status code 503')` to every 5xx line that has no
 * error of its own; its stack points into pino-http and says nothing the status does not. Such
 * lines keep the status and lose the made-up error; a real error (`res.err`) keeps its stack.
 */
export function requestErrorFields(
  hasOwnError: boolean,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  if (hasOwnError) return fields;
  const rest = { ...fields };
  delete rest.err;
  return rest;
}

/**
 * Where a log line's `requestId` comes from. Every line logged inside a request's scope
 * (request-context.ts) carries its id, in every app; lines outside any request carry none.
 * - `http`: the app also serves the request over HTTP (the gateway): the request's completion
 *   line takes the id from the HTTP request (`req.id`, set from X-Request-Id by the app).
 * - `messages`: requests arrive as messages only (the register, the worker).
 */
export type RequestIdSource = 'http' | 'messages';

/**
 * Structured JSON logs in production; `pretty` for a person at a terminal. Request logs
 * never carry credentials: both key headers, the invitation token, and the console's cookies
 * (session id, CSRF secret) and CSRF token are redacted.
 */
export function loggerParams(
  app: string,
  config: LoggingConfig,
  requestIds: RequestIdSource = 'messages',
): Params {
  return {
    // Nest 11's wildcard syntax; nestjs-pino 4 defaults to the old '*', which Nest warns about.
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    pinoHttp: {
      name: app,
      level: config.LOG_LEVEL,
      // Merged into each line's own fields, not bound to a child logger: a child per request
      // (pino-http's quietReqLogger) cost the gateway about a tenth of its throughput.
      mixin: requestLogFields,
      redact: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.query.token',
        // The console's session id and CSRF secret (cookies), and its CSRF token.
        'req.headers.cookie',
        'req.headers["x-csrf-token"]',
        // The password again, for what hands out a secret (the console's recent sign-in).
        'req.headers["x-confirm-password"]',
        'res.headers["set-cookie"]',
      ],
      customLogLevel: (_req, res, error) => requestLogLevel(res.statusCode, error),
      customErrorObject: (req, res, error, fields: Record<string, unknown>) =>
        withRequestId(
          requestIds,
          req,
          requestErrorFields(error.message !== `failed with status code ${res.statusCode}`, fields),
        ),
      // The completion line is written when the response ends, maybe outside the request's
      // scope: it names the request from the request itself.
      customSuccessObject: (req, _res, fields: Record<string, unknown>) =>
        withRequestId(requestIds, req, fields),
      serializers: {
        req: (req: { url?: string }) => ({ ...req, url: req.url && redactUrl(req.url) }),
      },
      transport:
        config.LOG_FORMAT === 'pretty'
          ? {
              target: 'pino-pretty',
              options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' },
            }
          : undefined,
    },
  };
}

/** A request line's fields, with `requestId` from the HTTP request when the app sets it. */
function withRequestId(
  source: RequestIdSource,
  req: { id?: unknown },
  fields: Record<string, unknown>,
): Record<string, unknown> {
  return source === 'http' && typeof req.id === 'string'
    ? { ...fields, requestId: req.id }
    : fields;
}

const DEBUG_LEVELS = new Set(['debug', 'trace']);
let debugWanted: boolean | undefined;

/**
 * Whether per-request debug lines (one per RPC served, one per webhook attempt) are wanted:
 * read once from LOG_LEVEL, so a hot path at the default level builds no message it would
 * throw away.
 */
export function debugLines(): boolean {
  debugWanted ??= DEBUG_LEVELS.has(process.env.LOG_LEVEL ?? '');
  return debugWanted;
}
