import type { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type { DataSource } from 'typeorm';

/** Postgres answers a trivial query within the timeout. */
export async function postgresHealth(
  indicators: HealthIndicatorService,
  db: DataSource,
  timeoutMs = 1_000,
): Promise<HealthIndicatorResult> {
  const check = indicators.check('postgres');
  try {
    await Promise.race([
      db.query('SELECT 1'),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref()),
    ]);
    return check.up();
  } catch (error) {
    return check.down({ message: (error as Error).message });
  }
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
