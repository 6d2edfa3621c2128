import { createMigratedDatabase, type MigratedDatabase } from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { workerDataSource } from '../database/data-source';
import { migrateWorker } from '../migrate';
import { signingSecretCipher } from '../webhooks/signing-secrets';
import { DeliveryLeases } from './delivery-leases';
import { insertPayloads } from './testing/payloads';

let store: MigratedDatabase;
let db: DataSource;

beforeAll(async () => {
  store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 2));
  db = store.db;
  const secret = signingSecretCipher().encrypt('whsec_test');
  await db.query(
    `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
     VALUES ('whe_on', 'wsp_1', 'https://example.com/hook', '{*}', $1)`,
    [secret],
  );
  await db.query(
    `INSERT INTO delivery.endpoints
       (id, workspace_id, url, events, secret, enabled, disabled_reason, disabled_at)
     VALUES ('whe_off', 'wsp_1', 'https://example.com/off', '{*}', $1, false, 'manual', now())`,
    [secret],
  );
}, 30_000);

afterAll(async () => {
  await store?.close();
});

/** Deliveries [id, endpoint, status, due in s (negative: overdue), lease ends in s or null]. */
async function deliveries(rows: Array<[string, string, string, number, number | null]>) {
  await insertPayloads(
    db,
    rows.map(([id]) => `evt_${id}`),
  );
  await db.query(
    `INSERT INTO delivery.deliveries
       (id, event_id, endpoint_id, workspace_id, event, status, next_attempt_at, lease_until)
     SELECT r.id, 'evt_' || r.id, r.endpoint, 'wsp_1', 'asset.created', r.status,
       now() + r.due * interval '1 second', now() + r.lease * interval '1 second'
     FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[])
       AS r (id, endpoint, status, due, lease)`,
    [0, 1, 2, 3, 4].map((i) => rows.map((row) => row[i])),
  );
}

describe('DeliveryLeases.due: what the workers are behind on, for the metrics', () => {
  it('counts pending deliveries due now, not leased, to enabled endpoints, and the oldest wait', async () => {
    await expect(new DeliveryLeases(db).due()).resolves.toEqual({ due: 0, oldestAgeSeconds: 0 });
    await deliveries([
      ['dlv_overdue', 'whe_on', 'pending', -120, null],
      ['dlv_just_due', 'whe_on', 'pending', -10, null],
      ['dlv_lease_ran_out', 'whe_on', 'pending', -30, -5],
      ['dlv_leased', 'whe_on', 'pending', -300, 20],
      ['dlv_later', 'whe_on', 'pending', 60, null],
      ['dlv_done', 'whe_on', 'delivered', -600, null],
      ['dlv_given_up', 'whe_on', 'failed', -600, null],
      ['dlv_endpoint_off', 'whe_off', 'pending', -900, null],
    ]);
    const { due, oldestAgeSeconds } = await new DeliveryLeases(db).due();
    expect(due).toBe(3);
    expect(oldestAgeSeconds).toBeGreaterThanOrEqual(120);
    expect(oldestAgeSeconds).toBeLessThan(130);
  });
});
