import { AppliedWrites } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { newId } from '@custodian/persistence';
import { createMigratedDatabase, type MigratedDatabase } from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig } from '../config/worker-config';
import { workerDataSource } from '../database/data-source';
import type { WorkspacePlans } from '@custodian/messaging';
import { migrateWorker } from '../migrate';
import { EndpointEvents } from '../webhooks/endpoint-events';
import { EndpointsService } from '../webhooks/endpoints.service';
import { signingSecretCipher } from '../webhooks/signing-secrets';
import type { DeliveryScheduler } from './delivery-scheduler';
import { EndpointDeliveries } from './endpoint-deliveries';
import type { FanOut } from './fan-out';
import { insertPayloads } from './testing/payloads';

/**
 * The `deliveries` admin message against Postgres: `limit` as a number or as digits (what
 * else it refuses is DeliveriesInput's, see deliveries-input.spec.ts).
 */
describe('EndpointDeliveries.deliveries limit (integration)', () => {
  let store: MigratedDatabase;
  let db: DataSource;
  let service: EndpointDeliveries;
  const endpoint = newId('whe');

  beforeAll(async () => {
    store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 2));
    db = store.db;
    const events = new EndpointEvents();
    const endpoints = new EndpointsService(
      db,
      {} as WorkspacePlans,
      loadWorkerConfig({ DATABASE_URL: store.database.url }),
      new ActivityLog('delivery'),
      events,
      new AppliedWrites(db, 'delivery'),
    );
    service = new EndpointDeliveries(db, endpoints, {} as FanOut, {} as DeliveryScheduler, events);
    await db.query(
      `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
       VALUES ($1, 'wsp_test', 'http://127.0.0.1:9/hook', '{*}', $2)`,
      [endpoint, signingSecretCipher().encrypt('whsec_test')],
    );
    await insertPayloads(
      db,
      [1, 2, 3, 4, 5].map((g) => `evt_${g}`),
    );
    await db.query(
      `INSERT INTO delivery.deliveries (id, event_id, endpoint_id, workspace_id, event)
       SELECT 'dlv_' || g, 'evt_' || g, $1, 'wsp_test', 'asset.created'
       FROM generate_series(1, 5) g`,
      [endpoint],
    );
  }, 30_000);

  afterAll(async () => {
    await store?.close();
  });

  it('takes limit as a number, as a string of digits, or leaves it at 20', async () => {
    expect(await service.deliveries({ endpoint, limit: 2 })).toHaveLength(2);
    expect(await service.deliveries({ endpoint, limit: '3' })).toHaveLength(3);
    expect(await service.deliveries({ endpoint })).toHaveLength(5);
  });
});
