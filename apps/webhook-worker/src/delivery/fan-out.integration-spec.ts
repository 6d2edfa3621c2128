import type { PublishedEvent } from '@custodian/contracts';
import { createMigratedDatabase, type MigratedDatabase } from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { workerDataSource } from '../database/data-source';
import { BoundedFanOut1764100000000 } from '../database/migrations/1764100000000-BoundedFanOut';
import { migrateWorker } from '../migrate';
import type { DeliveryScheduler } from './delivery-scheduler';
import { DELIVERY_CHUNK, FanOut } from './fan-out';

/**
 * Issue 31, item 1: an event's payload is stored once however many endpoints it goes to, and
 * a batch is stored in statements of bounded size. Before, every delivery row held a full copy
 * and a batch was one statement: 2,000 endpoints on `*` made a 200-event batch 400,000 copies
 * in one INSERT.
 */
describe('FanOut (integration)', () => {
  let store: MigratedDatabase;
  let db: DataSource;
  let fanOut: FanOut;
  let ticks = 0;

  const event = (id: string, workspace: string, data: Record<string, unknown> = { id: 'ast_1' }) =>
    ({
      id,
      event: 'asset.created',
      created_at: '2026-11-28T10:00:00.000Z',
      data,
      workspace_id: workspace,
    }) as PublishedEvent;

  async function endpoints(workspace: string, n: number): Promise<string[]> {
    const ids = Array.from({ length: n }, (_, i) => `whe_${workspace}_${i}`);
    await db.query(
      `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
       SELECT id, $2, 'http://127.0.0.1:9/' || id, '{*}', 'v1:x' FROM unnest($1::text[]) AS id`,
      [ids, workspace],
    );
    return ids;
  }

  beforeAll(async () => {
    store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 2));
    db = store.db;
    const scheduler = { tick: () => void ticks++ } as unknown as DeliveryScheduler;
    fanOut = new FanOut(db, scheduler);
  }, 30_000);

  afterAll(async () => {
    await store?.close();
  });

  it('stores the payload once for all its endpoints, and each delivery references it', async () => {
    const ids = await endpoints('wsp_once', 3);
    const big = { id: 'ast_big', notes: 'x'.repeat(50_000) };
    expect(await fanOut.store(event('evt_once', 'wsp_once', big), ids)).toBe(3);
    const payloads = await db.query<Array<{ event_id: string; payload: { data: unknown } }>>(
      `SELECT event_id, payload FROM delivery.event_payloads WHERE event_id = 'evt_once'`,
    );
    expect(payloads.map((row) => [row.event_id, row.payload.data])).toEqual([['evt_once', big]]);
    const deliveries = await db.query<Array<{ endpoint_id: string }>>(
      `SELECT d.endpoint_id FROM delivery.deliveries d
       JOIN delivery.event_payloads p ON p.event_id = d.event_id
       WHERE d.event_id = 'evt_once' ORDER BY d.endpoint_id`,
    );
    expect(deliveries.map((row) => row.endpoint_id)).toEqual([...ids].sort());
    // A delivery row is a few ids: the 50 kB is in the table once.
    const [{ bytes }] = await db.query<[{ bytes: number }]>(
      `SELECT sum(pg_column_size(d.*))::int AS bytes FROM delivery.deliveries d
       WHERE d.event_id = 'evt_once'`,
    );
    expect(bytes).toBeLessThan(3 * 1_000);
  });

  it('stores a batch past DELIVERY_CHUNK in bounded statements, and a second time stores nothing', async () => {
    const ids = await endpoints('wsp_chunks', 100);
    const events = Array.from({ length: 12 }, (_, i) => event(`evt_chunk_${i}`, 'wsp_chunks'));
    const items = events.map((one) => ({ event: one, endpointIds: ids, context: null }));
    const sizes: number[] = [];
    const query = jest.spyOn(db, 'query');
    try {
      expect(await fanOut.storeMany(items)).toBe(1_200);
      for (const [sql, parameters] of query.mock.calls) {
        if (String(sql).includes('INSERT INTO delivery.deliveries')) {
          sizes.push((parameters as unknown[][])[0]!.length);
        }
      }
    } finally {
      query.mockRestore();
    }
    expect(sizes).toEqual([DELIVERY_CHUNK, 1_200 - DELIVERY_CHUNK]);
    const [{ n }] = await db.query<[{ n: number }]>(
      `SELECT count(*)::int AS n FROM delivery.event_payloads WHERE event_id LIKE 'evt_chunk_%'`,
    );
    expect(n).toBe(12);
    // A redelivered batch (its messages came again) creates nothing twice, nor wakes the scheduler.
    const before = ticks;
    expect(await fanOut.storeMany(items)).toBe(0);
    expect(ticks).toBe(before);
  });

  it('moves the copies of an older version into one payload per event, and marks URLs taken twice', async () => {
    // The schema as the previous version left it, with its rows.
    const migration = new BoundedFanOut1764100000000();
    const runner = db.createQueryRunner();
    try {
      await db.query(`DELETE FROM delivery.deliveries`);
      await db.query(`DELETE FROM delivery.event_payloads`);
      await db.query(`DELETE FROM delivery.endpoints`);
      await migration.down(runner);
      await db.query(
        `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret, created_at) VALUES
           ('whe_old', 'wsp_m', 'http://127.0.0.1:9/same', '{*}', 'v1:x', now() - interval '2 days'),
           ('whe_dup', 'wsp_m', 'http://127.0.0.1:9/same', '{*}', 'v1:x', now() - interval '1 day'),
           ('whe_own', 'wsp_m', 'http://127.0.0.1:9/own', '{*}', 'v1:x', now())`,
      );
      await db.query(
        `INSERT INTO delivery.deliveries (id, event_id, endpoint_id, workspace_id, event, payload,
           context) VALUES
           ('dlv_1', 'evt_m', 'whe_old', 'wsp_m', 'asset.created', '{"id":"evt_m"}', '{"r":"1"}'),
           ('dlv_2', 'evt_m', 'whe_dup', 'wsp_m', 'asset.created', '{"id":"evt_m"}', '{"r":"1"}'),
           ('dlv_3', 'evt_n', 'whe_own', 'wsp_m', 'asset.created', '{"id":"evt_n"}', NULL)`,
      );
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(
      await db.query(
        `SELECT event_id, payload, context FROM delivery.event_payloads ORDER BY event_id`,
      ),
    ).toEqual([
      { event_id: 'evt_m', payload: { id: 'evt_m' }, context: { r: '1' } },
      { event_id: 'evt_n', payload: { id: 'evt_n' }, context: null },
    ]);
    expect(
      await db.query(`SELECT id, duplicate_url FROM delivery.endpoints ORDER BY created_at`),
    ).toEqual([
      { id: 'whe_old', duplicate_url: false },
      { id: 'whe_dup', duplicate_url: true },
      { id: 'whe_own', duplicate_url: false },
    ]);
    const [{ n }] = await db.query<[{ n: number }]>(
      `SELECT count(*)::int AS n FROM delivery.deliveries`,
    );
    expect(n).toBe(3);
  });
});
