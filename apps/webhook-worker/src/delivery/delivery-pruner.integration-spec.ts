import { createMigratedDatabase, type MigratedDatabase } from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig } from '../config/worker-config';
import { workerDataSource } from '../database/data-source';
import { migrateWorker } from '../migrate';
import { signingSecretCipher } from '../webhooks/signing-secrets';
import { DeliveryPruner } from './delivery-pruner';
import { insertPayloads } from './testing/payloads';

let store: MigratedDatabase;
let db: DataSource;

beforeAll(async () => {
  store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 2));
  db = store.db;
  await db.query(
    `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
     VALUES ('whe_1', 'wsp_1', 'https://example.com/hook', '{*}', $1)`,
    [signingSecretCipher().encrypt('whsec_test')],
  );
}, 30_000);

afterAll(async () => {
  await store?.close();
});

/** Deliveries [id, status, days old], each with two logged attempts. */
async function deliveries(rows: Array<[string, string, number]>): Promise<void> {
  await insertPayloads(
    db,
    rows.map(([id]) => `evt_${id}`),
  );
  await db.query(
    `INSERT INTO delivery.deliveries
       (id, event_id, endpoint_id, workspace_id, event, status, attempts, created_at)
     SELECT r.id, 'evt_' || r.id, 'whe_1', 'wsp_1', 'asset.created', r.status, 2,
       now() - r.days * interval '1 day'
     FROM unnest($1::text[], $2::text[], $3::float8[]) AS r (id, status, days)`,
    [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
  );
  await db.query(
    `INSERT INTO delivery.delivery_attempts (delivery_id, attempt, started_at, duration_ms)
     SELECT d.id, a, d.created_at, 10 FROM delivery.deliveries d, generate_series(1, 2) AS a
     WHERE d.id = ANY ($1::text[])`,
    [rows.map((r) => r[0])],
  );
}

async function left(): Promise<{ deliveries: string[]; attempts: number }> {
  const found = await db.query<Array<{ id: string }>>(
    `SELECT id FROM delivery.deliveries ORDER BY id`,
  );
  const [{ n }] = await db.query<[{ n: number }]>(
    `SELECT count(*)::int AS n FROM delivery.delivery_attempts`,
  );
  return { deliveries: found.map((row) => row.id), attempts: n };
}

describe('DeliveryPruner: the delivery log keeps DELIVERY_RETENTION_DAYS', () => {
  it('deletes finished deliveries past the retention with their attempts, never a pending one', async () => {
    await deliveries([
      ['dlv_delivered_old', 'delivered', 31],
      ['dlv_failed_old', 'failed', 45],
      ['dlv_pending_old', 'pending', 60],
      ['dlv_delivered_recent', 'delivered', 29],
    ]);
    const pruner = new DeliveryPruner(db, loadWorkerConfig({ DATABASE_URL: store.database.url }));
    await expect(pruner.prune()).resolves.toBe(2);
    expect(await left()).toEqual({
      deliveries: ['dlv_delivered_recent', 'dlv_pending_old'],
      attempts: 4,
    });

    // A shorter retention takes the recent one too; pending still stays.
    const shorter = new DeliveryPruner(
      db,
      loadWorkerConfig({ DATABASE_URL: store.database.url, DELIVERY_RETENTION_DAYS: '7' }),
    );
    await expect(shorter.prune()).resolves.toBe(1);
    expect(await left()).toEqual({ deliveries: ['dlv_pending_old'], attempts: 2 });
  });
});

describe('DeliveryPruner: event payloads no delivery references', () => {
  it('deletes those stored over an hour ago, and keeps a referenced one and a fresh one', async () => {
    await insertPayloads(db, ['evt_orphan_old', 'evt_orphan_new', 'evt_referenced']);
    await db.query(
      `UPDATE delivery.event_payloads SET created_at = now() - interval '2 hours'
       WHERE event_id IN ('evt_orphan_old', 'evt_referenced')`,
    );
    await db.query(
      `INSERT INTO delivery.deliveries (id, event_id, endpoint_id, workspace_id, event)
       VALUES ('dlv_referenced', 'evt_referenced', 'whe_1', 'wsp_1', 'asset.created')`,
    );
    const pruner = new DeliveryPruner(db, loadWorkerConfig({ DATABASE_URL: store.database.url }));
    await pruner.prune();
    const kept = await db.query<Array<{ event_id: string }>>(
      `SELECT event_id FROM delivery.event_payloads
       WHERE event_id IN ('evt_orphan_old', 'evt_orphan_new', 'evt_referenced')
       ORDER BY event_id`,
    );
    expect(kept.map((row) => row.event_id)).toEqual(['evt_orphan_new', 'evt_referenced']);
  });
});

describe('DeliveryPruner: previous signing secrets past their overlap', () => {
  it('drops them, and keeps one whose overlap still runs', async () => {
    const cipher = signingSecretCipher();
    await db.query(
      `INSERT INTO delivery.endpoints
         (id, workspace_id, url, events, secret, previous_secret, previous_secret_expires_at)
       VALUES ('whe_ended', 'wsp_1', 'https://example.com/a', '{*}', $1, $2,
               now() - interval '1 minute'),
              ('whe_running', 'wsp_1', 'https://example.com/b', '{*}', $1, $2,
               now() + interval '1 hour')`,
      [cipher.encrypt('whsec_new'), cipher.encrypt('whsec_old')],
    );
    await new DeliveryPruner(db, loadWorkerConfig({ DATABASE_URL: store.database.url })).prune();
    const rows = await db.query<Array<{ id: string; kept: boolean; expiry: boolean }>>(
      `SELECT id, previous_secret IS NOT NULL AS kept,
         previous_secret_expires_at IS NOT NULL AS expiry
       FROM delivery.endpoints WHERE id IN ('whe_ended', 'whe_running') ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: 'whe_ended', kept: false, expiry: false },
      { id: 'whe_running', kept: true, expiry: true },
    ]);
  });
});
