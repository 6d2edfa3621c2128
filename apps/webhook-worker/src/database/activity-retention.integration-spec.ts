import { ActivityRetentionJob } from '@custodian/persistence';
import { createMigratedDatabase, type MigratedDatabase } from '@custodian/testing';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { encodeTime } from 'ulid';
import { migrateWorker } from '../migrate';
import { workerDataSource } from './data-source';

const DAY_MS = 86_400_000;

/**
 * Issue 31, item 8: the activity feed's retention (ACTIVITY_RETENTION_DAYS), on the worker's
 * own table as each app runs it. Before, the table grew without end.
 */
describe('ActivityRetentionJob (integration)', () => {
  let store: MigratedDatabase;
  let db: DataSource;

  beforeAll(async () => {
    store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 2));
    db = store.db;
  }, 30_000);

  afterAll(async () => {
    await store?.close();
  });

  /** An entry made `daysAgo` days ago: its id is a ULID of that time, as newId makes it. */
  async function entry(daysAgo: number): Promise<string> {
    const at = Date.now() - daysAgo * DAY_MS;
    const id = `act_${encodeTime(at, 10).toLowerCase()}${randomBytes(8).toString('hex').slice(0, 16)}`;
    await db.query(
      `INSERT INTO delivery.activity (id, workspace_id, at, source, actor_type, record_type,
         record_id, action, changes)
       VALUES ($1, 'wsp_1', $2, 'cli', 'system', 'endpoint', 'whe_1', 'updated', '[]')`,
      [id, new Date(at)],
    );
    return id;
  }

  it('deletes the entries older than the retention, and keeps the others', async () => {
    const old = [await entry(400), await entry(366)];
    const kept = [await entry(364), await entry(1), await entry(0)];
    const job = new ActivityRetentionJob(db, 'delivery', 365, () => undefined);
    await expect(job.prune()).resolves.toBe(2);
    const left = await db.query<Array<{ id: string }>>(
      `SELECT id FROM delivery.activity ORDER BY id`,
    );
    expect(left.map((row) => row.id)).toEqual([...kept].sort());
    expect(left.map((row) => row.id)).not.toEqual(expect.arrayContaining(old));
  });
});
