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
 * Structured JSON logs in production; `pretty` for a person at a terminal. Request logs
 * never carry credentials: both key headers and the invitation token are redacted.
 */
export function loggerParams(app: string, config: LoggingConfig): Params {
  return {
    // Nest 11's wildcard syntax; nestjs-pino 4 defaults to the old '*', which Nest warns about.
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    pinoHttp: {
      name: app,
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.query.token'],
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
