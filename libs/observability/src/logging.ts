import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';

export interface LoggingConfig {
  LOG_LEVEL: string;
  LOG_FORMAT: 'json' | 'pretty';
}

/** Query parameters that are credentials (the invitation link's token). */
const SECRET_QUERY = /([?&](?:token)=)[^&#]*/gi;

/** A URL fit for a log line: credentials in its query replaced by [Redacted]. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[Redacted]');
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
 * Structured JSON logs in production; `pretty` for a person at a terminal. Request logs
 * never carry credentials: both key headers, the invitation token, and the console's cookies
 * (session id, CSRF secret) and CSRF token are redacted.
 */
export function loggerParams(app: string, config: LoggingConfig): Params {
  return {
    // Nest 11's wildcard syntax; nestjs-pino 4 defaults to the old '*', which Nest warns about.
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    pinoHttp: {
      name: app,
      level: config.LOG_LEVEL,
      redact: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.query.token',
        // The console's session id and CSRF secret (cookies), and its CSRF token.
        'req.headers.cookie',
        'req.headers["x-csrf-token"]',
        'res.headers["set-cookie"]',
      ],
      customLogLevel: (_req, res, error) => requestLogLevel(res.statusCode, error),
      customErrorObject: (_req, res, error, fields: Record<string, unknown>) =>
        requestErrorFields(error.message !== `failed with status code ${res.statusCode}`, fields),
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
