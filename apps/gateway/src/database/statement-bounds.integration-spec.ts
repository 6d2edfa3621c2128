import { createTestDatabase, statementBounds, type TestDatabase } from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { loadGatewayConfig } from '../config/gateway-config';
import { gatewayDataSource } from './data-source';

/**
 * Issue 31, item 8: the gateway's serving pool bounds every statement and lock wait
 * (DATABASE_STATEMENT_TIMEOUT_MS); before, a statement stuck behind a lock held its connection
 * for as long as the lock lasted.
 */
describe("the gateway's serving pool (integration)", () => {
  let database: TestDatabase;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await gatewayDataSource(database.url, 3, 200).initialize();
  });

  afterAll(async () => {
    if (db?.isInitialized) await db.destroy();
    await database?.drop();
  });

  it('cancels a statement, or a lock wait, past its bound, and keeps serving', async () => {
    expect(loadGatewayConfig({}).DATABASE_STATEMENT_TIMEOUT_MS).toBe(10_000);
    const bounds = await statementBounds(db, 200);
    expect(bounds).toEqual({
      setting: '200ms',
      slow: '57014',
      locked: expect.stringMatching(/^(55P03|57014)$/) as string,
      after: 1,
    });
  });
});
