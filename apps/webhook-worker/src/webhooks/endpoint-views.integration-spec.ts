import { AppliedWrites, planCopyWith } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { PLAN_CATALOG } from '@custodian/plans';
import { createMigratedDatabase, domainRejection, type MigratedDatabase } from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig } from '../config/worker-config';
import { workerDataSource } from '../database/data-source';
import { insertPayloads } from '../delivery/testing/payloads';
import { migrateWorker } from '../migrate';
import { EndpointEvents } from './endpoint-events';
import { EndpointsService } from './endpoints.service';

/** Endpoints as the console sees them: created from a list of events, and their last 24 h. */
describe('console endpoint views (integration)', () => {
  const workspace = 'wsp_views';
  let store: MigratedDatabase;
  let db: DataSource;
  let service: EndpointsService;

  beforeAll(async () => {
    store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 2));
    db = store.db;
    const config = loadWorkerConfig({
      DATABASE_URL: store.database.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    service = new EndpointsService(
      db,
      await planCopyWith(
        db,
        { schema: 'delivery', reader: 'webhook-worker' },
        { workspace_id: workspace, plan: 'pro', api_access: true, limits: PLAN_CATALOG.pro.limits },
      ),
      config,
      new ActivityLog('delivery'),
      new EndpointEvents(),
      new AppliedWrites(db, 'delivery'),
    );
  }, 30_000);

  afterAll(async () => {
    await store?.close();
  });

  it('creates from a list of event keys, the secret in the reply alone', async () => {
    const created = await service.create({
      workspace,
      url: 'http://127.0.0.1:9/created',
      events: ['asset.created', 'employee.offboarded'],
      description: '  Our CMDB  ',
    });
    const { secret, id, created_at: createdAt, ...rest } = created;
    expect([secret, id, Number.isNaN(Date.parse(createdAt))]).toEqual([
      expect.stringMatching(/^whsec_/) as string,
      expect.stringMatching(/^whe_/) as string,
      false,
    ]);
    expect(rest).toEqual({
      url: 'http://127.0.0.1:9/created',
      description: 'Our CMDB',
      events: ['asset.created', 'employee.offboarded'],
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      consecutive_failures: 0,
      success_rate: null,
      deliveries_24h: 0,
      secret_rotation: null,
    });
    // The view (a get, a list) never holds the secret.
    expect(await service.get(workspace, id)).toEqual({ id, created_at: createdAt, ...rest });
    const refused = await domainRejection(
      service.create({ workspace, url: 'http://127.0.0.1:9/x', events: ['asset.created,x'] }),
    );
    expect(refused.message).toContain('unknown event key asset.created,x');
  });

  it('rates the last 24 h of finished deliveries: delivered / (delivered + failed)', async () => {
    const rated = await service.create({
      workspace,
      url: 'http://127.0.0.1:9/rated',
      events: ['*'],
    });
    const idle = await service.create({ workspace, url: 'http://127.0.0.1:9/idle', events: ['*'] });
    // [status, hours since it finished]: the pending one and the one 25 h ago do not count.
    const rows: Array<[string, number | null]> = [
      ['delivered', 1],
      ['delivered', 2],
      ['delivered', 23],
      ['failed', 3],
      ['pending', null],
      ['failed', 25],
    ];
    await insertPayloads(
      db,
      rows.map((_, i) => `evt_rate_${i + 1}`),
    );
    await db.query(
      `INSERT INTO delivery.deliveries
         (id, event_id, endpoint_id, workspace_id, event, status, finished_at)
       SELECT 'dlv_rate_' || r.n, 'evt_rate_' || r.n, $1, $2, 'asset.created', r.status,
         now() - r.hours * interval '1 hour'
       FROM unnest($3::text[], $4::float8[]) WITH ORDINALITY AS r (status, hours, n)`,
      [rated.id, workspace, rows.map((r) => r[0]), rows.map((r) => r[1])],
    );
    const listed = await service.consoleList(workspace);
    const byId = new Map(listed.map((view) => [view.id, view]));
    expect(byId.get(rated.id)).toMatchObject({ success_rate: 0.75, deliveries_24h: 4 });
    expect(byId.get(idle.id)).toMatchObject({ success_rate: null, deliveries_24h: 0 });
    // Oldest first.
    expect(listed.map((view) => view.id).slice(-2)).toEqual([rated.id, idle.id]);
    expect(await service.consoleList('wsp_other')).toEqual([]);
  });
});
