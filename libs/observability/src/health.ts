import { Logger } from '@nestjs/common';
import type { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type { DataSource } from 'typeorm';

/**
 * Whether Postgres answers a trivial query within the timeout. What went wrong goes to the
 * log, not into the answer: `/health` is public on the gateway, and a driver's error text can
 * name hosts, users and databases.
 */
export async function pingPostgres(
  db: DataSource,
  timeoutMs = 1_000,
): Promise<{ up: true } | { up: false; message: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.query('SELECT 1'),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError()), timeoutMs);
        timer.unref();
      }),
    ]);
    return { up: true };
  } catch (error) {
    if (error instanceof TimeoutError)
      return { up: false, message: `no answer within ${timeoutMs} ms` };
    logger.warn(`postgres health check failed: ${(error as Error).message}`);
    return { up: false, message: 'not reachable' };
  } finally {
    clearTimeout(timer);
  }
}

class TimeoutError extends Error {}

const logger = new Logger('Health');

/** Postgres answers a trivial query within the timeout (see pingPostgres). */
export async function postgresHealth(
  indicators: HealthIndicatorService,
  db: DataSource,
  timeoutMs = 1_000,
): Promise<HealthIndicatorResult> {
  const check = indicators.check('postgres');
  const result = await pingPostgres(db, timeoutMs);
  return result.up ? check.up() : check.down({ message: result.message });
}

/** A connection the app holds open (RabbitMQ) reports whether it is up right now. */
export function connectionHealth(
  indicators: HealthIndicatorService,
  key: string,
  connected: boolean,
): HealthIndicatorResult {
  const check = indicators.check(key);
  return connected ? check.up() : check.down({ message: 'not connected' });
}
