import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';

export interface LoggingConfig {
  LOG_LEVEL: string;
  LOG_FORMAT: 'json' | 'pretty';
}

/**
 * Structured JSON logs in production; `pretty` for a person at a terminal. Request logs
 * never carry the API key: both key headers are redacted.
 */
export function loggerParams(app: string, config: LoggingConfig): Params {
  return {
    // Nest 11's wildcard syntax; nestjs-pino 4 defaults to the old '*', which Nest warns about.
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    pinoHttp: {
      name: app,
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]'],
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
