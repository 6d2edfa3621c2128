import { ActivityLog } from '@custodian/persistence';
import { BULK_RESEND_MAX } from '@custodian/contracts';
import { newId } from '@custodian/persistence';
import {
  createMigratedDatabase,
  domainRejection,
  eventually,
  WebhookReceiver,
  type MigratedDatabase,
} from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig } from '../config/worker-config';
import { workerDataSource } from '../database/data-source';
import { DeliveryScheduler } from '../delivery/delivery-scheduler';
import { FanOut } from '../delivery/fan-out';
import { insertPayloads } from '../delivery/testing/payloads';
import { migrateWorker } from '../migrate';
import { AppliedWrites, type WorkspacePlans } from '@custodian/messaging';
import { EndpointDeliveries } from '../delivery/endpoint-deliveries';
import { EndpointEvents } from '../webhooks/endpoint-events';
import { EndpointsService } from '../webhooks/endpoints.service';
import { signingSecretCipher } from '../webhooks/signing-secrets';
import { DeliveryLogService } from './delivery-log.service';

/**
 * The console's delivery log on Postgres with the live scheduler and a real receiver:
 * filters and keyset pages, what each attempt recorded, resends as new chains.
 */
describe('DeliveryLogService (integration)', () => {
  const receiver = new WebhookReceiver();
  const workspace = 'wsp_log';
  let store: MigratedDatabase;
  let db: DataSource;
  let scheduler: DeliveryScheduler;
  let endpoints: EndpointsService;
  let deliveries: EndpointDeliveries;
  let log: DeliveryLogService;

  beforeAll(async () => {
    store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 4));
    db = store.db;
    await receiver.start();
    const config = loadWorkerConfig({
      DATABASE_URL: store.database.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      DELIVERY_INTERVAL_MS: '50',
      DELIVERY_TIMEOUT_MS: '1000',
      DELIVERY_LEASE_MS: '5000',
      DELIVERY_RETRY_DELAYS_MS: '20,20',
      DELIVERY_RETENTION_DAYS: '9',
    });
    scheduler = new DeliveryScheduler(db, config);
    scheduler.onApplicationBootstrap();
    // Creation is not under test here: no plan facts are read.
    const events = new EndpointEvents();
    endpoints = new EndpointsService(
      db,
      {} as WorkspacePlans,
      config,
      new ActivityLog('delivery'),
      events,
      new AppliedWrites(db, 'delivery'),
    );
    deliveries = new EndpointDeliveries(
      db,
      endpoints,
      new FanOut(db, scheduler),
      scheduler,
      events,
    );
    log = new DeliveryLogService(
      db,
      endpoints,
      scheduler,
      config,
      new AppliedWrites(db, 'delivery'),
    );
  }, 30_000);

  afterAll(async () => {
    await scheduler?.beforeApplicationShutdown();
    await receiver.stop();
    await store?.close();
  });

  async function endpoint(path: string, enabled = true): Promise<string> {
    const id = newId('whe');
    await db.query(
      `INSERT INTO delivery.endpoints
         (id, workspace_id, url, events, secret, enabled, disabled_reason, disabled_at)
       VALUES ($1, $2, $3, '{*}', $4, $5, $6, $7)`,
      [
        id,
        workspace,
        receiver.url(path),
        signingSecretCipher().encrypt('whsec_log'),
        enabled,
        enabled ? null : 'manual',
        enabled ? null : new Date(),
      ],
    );
    return id;
  }

  /** Finished deliveries as the log would hold them: [id, endpoint, event, status, created]. */
  async function logged(rows: Array<[string, string, string, string, string]>): Promise<void> {
    await insertPayloads(
      db,
      rows.map(([id]) => `evt_${id}`),
    );
    await db.query(
      `INSERT INTO delivery.deliveries
         (id, event_id, endpoint_id, workspace_id, event, status, attempts, created_at,
          finished_at)
       SELECT r.id, 'evt_' || r.id, r.endpoint_id, $6, r.event, r.status,
         CASE WHEN r.status = 'pending' THEN 0 ELSE 1 END, r.created_at,
         CASE WHEN r.status = 'pending' THEN NULL ELSE r.created_at END
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
         AS r (id, endpoint_id, event, status, created_at)`,
      [
        rows.map((r) => r[0]),
        rows.map((r) => r[1]),
        rows.map((r) => r[2]),
        rows.map((r) => r[3]),
        rows.map((r) => r[4]),
        workspace,
      ],
    );
  }

  async function finished(id: string) {
    return eventually(async () => {
      const detail = await log.get(workspace, id);
      if (detail.status === 'pending') throw new Error('still pending');
      return detail;
    });
  }

  describe('search', () => {
    let a: string;
    let b: string;

    beforeAll(async () => {
      [a, b] = [await endpoint('/search-a', false), await endpoint('/search-b', false)];
      // dlv_s3 and dlv_s4 were created at the same microsecond: the id breaks the tie.
      await logged([
        ['dlv_s1', a, 'asset.created', 'delivered', '2026-01-01T10:00:00.000001Z'],
        ['dlv_s2', b, 'asset.updated', 'failed', '2026-01-01T11:00:00.000002Z'],
        ['dlv_s3', a, 'asset.updated', 'failed', '2026-01-01T12:00:00.000003Z'],
        ['dlv_s4', a, 'asset.created', 'delivered', '2026-01-01T12:00:00.000003Z'],
        ['dlv_s5', b, 'asset.created', 'pending', '2026-01-01T13:00:00.000004Z'],
      ]);
    });

    const ids = (page: { data: Array<{ delivery_id: string }> }) =>
      page.data.map((d) => d.delivery_id);
    const search = (filters: Omit<Parameters<DeliveryLogService['search']>[0], 'workspace'>) =>
      log.search({
        workspace,
        from: '2026-01-01T00:00:00Z',
        to: '2026-01-02T00:00:00Z',
        ...filters,
      });

    it('lists newest first with the retention, and filters by endpoint, event, status, time', async () => {
      const all = await search({});
      expect(ids(all)).toEqual(['dlv_s5', 'dlv_s4', 'dlv_s3', 'dlv_s2', 'dlv_s1']);
      expect(all).toMatchObject({ next_cursor: null, retention_days: 9 });
      expect(all.data[4]).toEqual({
        delivery_id: 'dlv_s1',
        event_id: 'evt_dlv_s1',
        event: 'asset.created',
        endpoint_id: a,
        endpoint_url: receiver.url('/search-a'),
        status: 'delivered',
        attempts: 1,
        created_at: '2026-01-01T10:00:00.000Z',
        last_attempt_at: null,
        last_status_code: null,
        last_error: null,
      });
      expect(ids(await search({ endpoint: b }))).toEqual(['dlv_s5', 'dlv_s2']);
      expect(ids(await search({ event: 'asset.updated' }))).toEqual(['dlv_s3', 'dlv_s2']);
      expect(ids(await search({ status: 'failed', endpoint: a }))).toEqual(['dlv_s3']);
      expect(
        ids(await search({ from: '2026-01-01T11:00:00Z', to: '2026-01-01T12:30:00+00:00' })),
      ).toEqual(['dlv_s4', 'dlv_s3', 'dlv_s2']);
    });

    it('pages with an opaque cursor: each delivery once, ties on time included', async () => {
      const seen: string[] = [];
      let before: string | undefined;
      let pages = 0;
      do {
        const page = await search({ limit: '2', before });
        seen.push(...ids(page));
        before = page.next_cursor ?? undefined;
        pages++;
      } while (before);
      expect(pages).toBe(3);
      expect(seen).toEqual(['dlv_s5', 'dlv_s4', 'dlv_s3', 'dlv_s2', 'dlv_s1']);
    });

    it('refuses a cursor it did not make and an unknown event key, naming them', async () => {
      const cursor = await domainRejection(search({ before: 'bm90IGEgY3Vyc29y' }));
      expect([cursor.code, cursor.message]).toEqual([
        'invalid_input',
        'before must be the next_cursor of a previous page of the delivery log',
      ]);
      const event = await domainRejection(search({ event: 'asset.melted' }));
      expect(event.message).toBe(
        'event must be an event key (e.g. asset.created) or ping; asset.melted is neither',
      );
    });
  });

  describe('what an attempt recorded', () => {
    it('the headers sent, the body as sent, and the response with sensitive headers hidden', async () => {
      const id = await endpoint('/headers');
      receiver.script('/headers', {
        status: 200,
        body: 'thanks',
        headers: {
          'set-cookie': ['session=abc; HttpOnly', 'other=1'],
          'x-auth-token': 'tok_live_123',
          'x-request-id': 'req_42',
        },
      });
      const test = await deliveries.test(id, workspace);
      const detail = await finished(test.delivery_id);
      const [request] = receiver.on('/headers');
      expect(detail.payload).toEqual(JSON.parse(request!.rawBody));
      expect(detail).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 200 });
      expect(detail.attempt_log).toHaveLength(1);
      const [attempt] = detail.attempt_log;
      expect(attempt).toMatchObject({ attempt: 1, chain: 1, status_code: 200, error: null });
      expect(attempt!.response_body).toBe('thanks');
      expect(attempt!.request_headers).toEqual({
        'content-type': 'application/json',
        'user-agent': 'Custodian-Webhooks/1.0',
        'x-custodian-event': 'ping',
        'x-custodian-delivery': test.delivery_id,
        'x-custodian-timestamp': request!.headers['x-custodian-timestamp'],
        'x-custodian-signature': request!.headers['x-custodian-signature'],
      });
      expect(attempt!.response_headers).toMatchObject({
        'content-type': 'text/plain',
        'set-cookie': '[hidden]',
        'x-auth-token': '[hidden]',
        'x-request-id': 'req_42',
      });
      expect(JSON.stringify(detail)).not.toContain('tok_live_123');
      expect(JSON.stringify(detail)).not.toContain('session=abc');
    });
  });

  describe('resend', () => {
    it('sends a failed delivery again as a new chain of at most 3 attempts, numbered on', async () => {
      const id = await endpoint('/resend');
      receiver.script('/resend', { status: 500, body: 'down' });
      const test = await deliveries.test(id, workspace);
      const first = await finished(test.delivery_id);
      expect(first).toMatchObject({ status: 'failed', attempts: 3, last_status_code: 500 });

      const resent = await log.resend(workspace, test.delivery_id);
      expect(resent).toMatchObject({ delivery_id: test.delivery_id, status: 'pending' });
      const second = await finished(test.delivery_id);
      expect(second.status).toBe('failed');
      expect(second.attempt_log.map((a) => [a.attempt, a.chain])).toEqual([
        [1, 1],
        [2, 1],
        [3, 1],
        [4, 2],
        [5, 2],
        [6, 2],
      ]);

      receiver.script('/resend', { status: 200 });
      await log.resend(workspace, test.delivery_id);
      const third = await finished(test.delivery_id);
      expect(third).toMatchObject({ status: 'delivered', attempts: 7, last_status_code: 200 });
      expect(third.attempt_log.at(-1)).toMatchObject({ attempt: 7, chain: 3 });
      // One delivery id throughout, so the receiver can deduplicate.
      const sent = receiver.on('/resend').map((r) => r.headers['x-custodian-delivery']);
      expect(sent).toEqual(Array(7).fill(test.delivery_id));
    });

    it('refuses to resend a delivery still pending', async () => {
      const id = await endpoint('/resend-pending', false);
      await logged([['dlv_pending', id, 'asset.created', 'pending', new Date().toISOString()]]);
      const refused = await domainRejection(log.resend(workspace, 'dlv_pending'));
      expect([refused.code, refused.message]).toEqual([
        'conflict',
        'delivery dlv_pending is still pending; it can be resent once it has been delivered or has failed',
      ]);
    });

    it(`resends the failed deliveries matching the filters, ${BULK_RESEND_MAX} at most per call`, async () => {
      // Disabled: the resent deliveries wait rather than go out.
      const id = await endpoint('/bulk', false);
      const other = await endpoint('/bulk-other', false);
      await insertPayloads(
        db,
        Array.from({ length: BULK_RESEND_MAX + 5 }, (_, i) => `evt_bulk_${i + 1}`),
      );
      await db.query(
        `INSERT INTO delivery.deliveries
           (id, event_id, endpoint_id, workspace_id, event, status, attempts, finished_at,
            created_at)
         SELECT 'dlv_bulk_' || g, 'evt_bulk_' || g, $1, $2, 'employee.created', 'failed', 3,
           now(), now() - g * interval '1 second'
         FROM generate_series(1, $3::int + 5) g`,
        [id, workspace, BULK_RESEND_MAX],
      );
      await logged([
        ['dlv_bulk_delivered', id, 'employee.created', 'delivered', new Date().toISOString()],
        ['dlv_bulk_event', id, 'employee.offboarded', 'failed', new Date().toISOString()],
        ['dlv_bulk_other', other, 'employee.created', 'failed', new Date().toISOString()],
      ]);
      const filters = { workspace, endpoint: id, event: 'employee.created' };
      expect(await log.resendFailed(filters)).toEqual({ resent: BULK_RESEND_MAX });
      expect(await log.resendFailed(filters)).toEqual({ resent: 5 });
      expect(await log.resendFailed(filters)).toEqual({ resent: 0 });
      const states = await db.query<Array<{ status: string; chain: number; n: number }>>(
        `SELECT status, chain, count(*)::int AS n FROM delivery.deliveries
         WHERE endpoint_id = ANY ($1::text[]) GROUP BY status, chain ORDER BY status, chain`,
        [[id, other]],
      );
      expect(states).toEqual([
        { status: 'delivered', chain: 1, n: 1 },
        { status: 'failed', chain: 1, n: 2 },
        { status: 'pending', chain: 2, n: BULK_RESEND_MAX + 5 },
      ]);
    });
  });
});
