import { createTestDatabase, type TestDatabase } from '@custodian/testing';
import { DataSource } from 'typeorm';
import { AmqpConnection } from '../amqp-connection';
import { OutboxRelay } from './outbox-relay';
import { createOutboxTable, indexPublishedOutbox } from './outbox.table';

const HOUR = 3_600_000;
let database: TestDatabase;
let db: DataSource;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await new DataSource({ type: 'postgres', url: database.url }).initialize();
  const runner = db.createQueryRunner();
  try {
    await runner.query(`CREATE SCHEMA app`);
    await createOutboxTable(runner, 'app');
    await indexPublishedOutbox(runner, 'app');
  } finally {
    await runner.release();
  }
}, 30_000);

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

/** Rows of app.outbox: [id, hours since created, hours since published or null]. */
async function rows(list: Array<[string, number, number | null]>): Promise<void> {
  await db.query(
    `INSERT INTO app.outbox (id, workspace_id, event, data, created_at, published_at)
     SELECT r.id, 'wsp_1', 'asset.created', '{}'::jsonb,
       now() - r.created * interval '1 hour',
       now() - r.published * interval '1 hour'
     FROM unnest($1::text[], $2::float8[], $3::float8[]) AS r (id, created, published)`,
    [list.map((r) => r[0]), list.map((r) => r[1]), list.map((r) => r[2])],
  );
}

async function ids(): Promise<string[]> {
  const found = await db.query<Array<{ id: string }>>(`SELECT id FROM app.outbox ORDER BY id`);
  return found.map((row) => row.id);
}

function relay(retentionMs?: number): OutboxRelay {
  // Pruning needs no broker: the connection is never opened.
  const connection = new AmqpConnection({ url: 'amqp://127.0.0.1:1', name: 'unused' });
  return new OutboxRelay(db, connection, {
    exchange: 'unused',
    schema: 'app',
    intervalMs: 1_000,
    retentionMs,
  });
}

describe('OutboxRelay retention', () => {
  afterEach(() => db.query(`DELETE FROM app.outbox`));

  it('deletes published rows older than the retention, and never an unpublished one', async () => {
    await rows([
      ['evt_old_published', 80, 79],
      ['evt_recent_published', 2, 1],
      ['evt_old_unpublished', 200, null],
      ['evt_new_unpublished', 0, null],
    ]);
    await expect(relay(72 * HOUR).prune()).resolves.toBe(1);
    expect(await ids()).toEqual([
      'evt_new_unpublished',
      'evt_old_unpublished',
      'evt_recent_published',
    ]);
  });

  it('keeps 72 hours by default, and works through more than one batch', async () => {
    await db.query(
      `INSERT INTO app.outbox (id, workspace_id, event, data, created_at, published_at)
       SELECT 'evt_' || lpad(g::text, 6, '0'), 'wsp_1', 'asset.created', '{}'::jsonb,
         now() - interval '74 hours', now() - interval '73 hours'
       FROM generate_series(1, 5003) AS g`,
    );
    await rows([['evt_kept', 72, 71]]);
    await expect(relay().prune()).resolves.toBe(5_003);
    expect(await ids()).toEqual(['evt_kept']);
  });
});
