import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { pingPostgres } from './health';

/** Only what the check calls: a query that answers, fails, or hangs. */
function database(query: () => Promise<unknown>): DataSource {
  return { query } as unknown as DataSource;
}

describe('pingPostgres', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('is up when the query answers', async () => {
    await expect(pingPostgres(database(() => Promise.resolve([{}])))).resolves.toEqual({
      up: true,
    });
  });

  it('says "not reachable" and logs the driver text, which can name hosts and users', async () => {
    const secret = 'password authentication failed for user "custodian_admin" at db-7.internal';
    const result = await pingPostgres(database(() => Promise.reject(new Error(secret))));
    expect(result).toEqual({ up: false, message: 'not reachable' });
    expect(JSON.stringify(result)).not.toContain('custodian_admin');
    expect(warn).toHaveBeenCalledWith(`postgres health check failed: ${secret}`);
  });

  it('gives up after its timeout', async () => {
    const started = Date.now();
    const result = await pingPostgres(
      database(() => new Promise(() => undefined)),
      50,
    );
    expect(result).toEqual({ up: false, message: 'no answer within 50 ms' });
    expect(Date.now() - started).toBeLessThan(500);
  });
});
