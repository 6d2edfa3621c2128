import { WEBHOOK_ENDPOINT_LIMITS, type PlanName } from '@custodian/contracts';
import { AppliedWrites, planCopyWith, type WorkspacePlans } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { PLAN_CATALOG } from '@custodian/plans';
import { createMigratedDatabase, domainRejection, type MigratedDatabase } from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig } from '../config/worker-config';
import { workerDataSource } from '../database/data-source';
import { FanOut } from '../delivery/fan-out';
import type { DeliveryScheduler } from '../delivery/delivery-scheduler';
import { migrateWorker } from '../migrate';
import { EndpointEvents } from './endpoint-events';
import { EndpointsService } from './endpoints.service';

/**
 * Issue 31, item 1: what one workspace's endpoints can cost is bounded. A plan allows so many
 * endpoints, one per URL; a delete frees a place. Before, a workspace could create endpoints
 * without end, each a full copy of every event it subscribed to.
 */
describe('webhook endpoint limits (integration)', () => {
  let store: MigratedDatabase;
  let db: DataSource;
  let plans: WorkspacePlans;
  let service: EndpointsService;

  const facts = (workspace: string, plan: PlanName) => ({
    workspace_id: workspace,
    plan,
    api_access: PLAN_CATALOG[plan].apiAccess,
    limits: PLAN_CATALOG[plan].limits,
  });

  beforeAll(async () => {
    store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 12));
    db = store.db;
    const config = loadWorkerConfig({
      DATABASE_URL: store.database.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    plans = await planCopyWith(
      db,
      { schema: 'delivery', reader: 'webhook-worker' },
      facts('wsp_pro', 'pro'),
      facts('wsp_race', 'pro'),
      facts('wsp_urls', 'business'),
      facts('wsp_gone', 'pro'),
    );
    service = new EndpointsService(
      db,
      plans,
      config,
      new ActivityLog('delivery'),
      new EndpointEvents(),
      new AppliedWrites(db, 'delivery'),
    );
  }, 30_000);

  afterAll(async () => {
    await store?.close();
  });

  const url = (workspace: string, n: number) => `http://127.0.0.1:9/${workspace}/${n}`;
  const count = async (workspace: string) =>
    Number(
      (
        await db.query<Array<{ n: string }>>(
          `SELECT count(*) AS n FROM delivery.endpoints WHERE workspace_id = $1`,
          [workspace],
        )
      )[0]!.n,
    );

  it("refuses the endpoint past the plan's limit with a 403 that names the limit and the plan", async () => {
    const limit = WEBHOOK_ENDPOINT_LIMITS.pro;
    for (let n = 0; n < limit; n++) {
      await service.create({ workspace: 'wsp_pro', url: url('wsp_pro', n), events: '*' });
    }
    const refused = await domainRejection(
      service.create({ workspace: 'wsp_pro', url: url('wsp_pro', limit), events: '*' }),
    );
    expect([refused.code, refused.message]).toEqual([
      'limit_reached',
      `Webhook endpoint limit of ${limit} reached on the pro plan; delete an endpoint to add another`,
    ]);
    expect(await count('wsp_pro')).toBe(limit);
  });

  it('lets no more than the limit through when creates race', async () => {
    const limit = WEBHOOK_ENDPOINT_LIMITS.pro;
    const outcomes = await Promise.allSettled(
      Array.from({ length: limit + 5 }, (_, n) =>
        service.create({ workspace: 'wsp_race', url: url('wsp_race', n), events: '*' }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(limit);
    expect(await count('wsp_race')).toBe(limit);
  });

  it('keeps one endpoint per URL in a workspace (409 naming it), on create and on a URL change', async () => {
    const first = await service.create({
      workspace: 'wsp_urls',
      url: url('wsp_urls', 1),
      events: '*',
    });
    const again = await domainRejection(
      service.create({ workspace: 'wsp_urls', url: url('wsp_urls', 1), events: ['asset.created'] }),
    );
    expect([again.code, again.message]).toEqual([
      'conflict',
      `url: webhook endpoint ${first.id} already sends to ${url('wsp_urls', 1)}; ` +
        'an endpoint subscribes to several events, so change its events instead',
    ]);
    const second = await service.create({
      workspace: 'wsp_urls',
      url: url('wsp_urls', 2),
      events: '*',
    });
    const moved = await domainRejection(
      service.update({ workspace: 'wsp_urls', id: second.id, url: url('wsp_urls', 1) }),
    );
    expect(moved.code).toBe('conflict');
    // Its own URL again, and another workspace's URL, are fine.
    await expect(
      service.update({ workspace: 'wsp_urls', id: second.id, url: url('wsp_urls', 2) }),
    ).resolves.toMatchObject({ url: url('wsp_urls', 2) });
    await expect(
      service.create({ workspace: 'wsp_gone', url: url('wsp_urls', 1), events: '*' }),
    ).resolves.toMatchObject({ url: url('wsp_urls', 1) });
    // The unique index holds even for a write that skips the service's check.
    await expect(
      db.query(
        `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
         VALUES ('whe_sneak', 'wsp_urls', $1, '{*}', 'v1:x')`,
        [url('wsp_urls', 1)],
      ),
    ).rejects.toMatchObject({ code: '23505' });
  });

  it('deletes an endpoint with its deliveries, frees its place and its URL, and says so in the feed', async () => {
    const kept = await service.create({
      workspace: 'wsp_gone',
      url: url('wsp_gone', 1),
      events: '*',
    });
    const doomed = await service.create({
      workspace: 'wsp_gone',
      url: url('wsp_gone', 2),
      events: '*',
    });
    const scheduler = { tick: () => Promise.resolve() } as unknown as DeliveryScheduler;
    const fanOut = new FanOut(db, scheduler);
    const event = {
      id: 'evt_gone_1',
      event: 'asset.created' as const,
      created_at: new Date().toISOString(),
      data: { id: 'ast_1' },
      workspace_id: 'wsp_gone',
    };
    expect(await fanOut.store(event, [kept.id, doomed.id])).toBe(2);

    // Another workspace's endpoint is not found.
    expect((await domainRejection(service.delete(doomed.id, 'wsp_pro'))).code).toBe('not_found');
    const deleted = await service.delete(doomed.id, 'wsp_gone', { id: 'mbr_1', email: 'a@b.c' });
    expect(deleted).toMatchObject({ id: doomed.id, url: url('wsp_gone', 2) });
    expect((await domainRejection(service.get('wsp_gone', doomed.id))).code).toBe('not_found');
    const deliveries = await db.query<Array<{ endpoint_id: string }>>(
      `SELECT endpoint_id FROM delivery.deliveries WHERE event_id = 'evt_gone_1'`,
    );
    expect(deliveries).toEqual([{ endpoint_id: kept.id }]);
    const [feed] = await db.query<Array<{ action: string; record_name: string }>>(
      `SELECT action, record_name FROM delivery.activity
       WHERE record_id = $1 ORDER BY at DESC, id DESC LIMIT 1`,
      [doomed.id],
    );
    expect(feed).toEqual({ action: 'deleted', record_name: url('wsp_gone', 2) });
    // Its URL can be used again.
    await expect(
      service.create({ workspace: 'wsp_gone', url: url('wsp_gone', 2), events: '*' }),
    ).resolves.toMatchObject({ url: url('wsp_gone', 2) });
  });
});
