import { ENDPOINT_DISABLED_ROUTING_KEY, parseEndpointDisabledNotice } from '@custodian/contracts';
import { AppliedWrites } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { newId } from '@custodian/persistence';
import {
  createMigratedDatabase,
  eventually,
  WebhookReceiver,
  type MigratedDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig } from '../config/worker-config';
import { workerDataSource } from '../database/data-source';
import { migrateWorker } from '../migrate';
import type { WorkspacePlans } from '@custodian/messaging';
import { EndpointEvents } from '../webhooks/endpoint-events';
import { EndpointsService } from '../webhooks/endpoints.service';
import { EndpointDeliveries } from './endpoint-deliveries';
import { signingSecretCipher } from '../webhooks/signing-secrets';
import { DeliveryLeases } from './delivery-leases';
import { DeliveryScheduler } from './delivery-scheduler';
import { FanOut } from './fan-out';
import { insertPayload } from './testing/payloads';

/**
 * An endpoint's run of failed deliveries on Postgres, with the live scheduler and a real
 * receiver: auto-disabled after WEBHOOK_AUTO_DISABLE_AFTER_FAILURES in a row (3 here, and
 * 0 hours), the run ended by a delivered delivery, re-enabled by a delivered Test ping.
 */
describe('auto-disable of failing endpoints (integration)', () => {
  const receiver = new WebhookReceiver();
  const workspace = 'wsp_auto';
  const warnings: string[] = [];
  let store: MigratedDatabase;
  let db: DataSource;
  let scheduler: DeliveryScheduler;
  let endpoints: EndpointsService;
  let deliveries: EndpointDeliveries;

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
      DELIVERY_RETRY_DELAYS_MS: '10',
      WEBHOOK_AUTO_DISABLE_AFTER_FAILURES: '3',
      WEBHOOK_AUTO_DISABLE_AFTER_HOURS: '0',
    });
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
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
    deliveries.onModuleInit();
  }, 30_000);

  afterAll(async () => {
    await scheduler?.beforeApplicationShutdown();
    jest.restoreAllMocks();
    await receiver.stop();
    await store?.close();
  });

  async function endpoint(path: string): Promise<string> {
    const id = newId('whe');
    await db.query(
      `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
       VALUES ($1, $2, $3, '{*}', $4)`,
      [id, workspace, receiver.url(path), signingSecretCipher().encrypt('whsec_auto')],
    );
    return id;
  }

  /** A due delivery for the endpoint, as fan-out stores it; the scheduler is told. */
  async function delivery(endpointId: string): Promise<string> {
    const id = newId('dlv');
    const eventId = newId('evt');
    await insertPayload(db, eventId);
    await db.query(
      `INSERT INTO delivery.deliveries (id, event_id, endpoint_id, workspace_id, event)
       VALUES ($1, $2, $3, $4, 'asset.created')`,
      [id, eventId, endpointId, workspace],
    );
    void scheduler.tick();
    return id;
  }

  async function status(id: string): Promise<string> {
    const [row] = await db.query<Array<{ status: string }>>(
      `SELECT status FROM delivery.deliveries WHERE id = $1`,
      [id],
    );
    return row!.status;
  }

  async function settled(id: string): Promise<string> {
    return eventually(async () => {
      const now = await status(id);
      if (now === 'pending') throw new Error('still pending');
      return now;
    });
  }

  const view = (id: string) => endpoints.get(workspace, id);

  /** The worker's outbox rows announcing the endpoint's disables (for the register). */
  async function notices(id: string): Promise<Array<{ event: string; data: object }>> {
    return db.query(
      `SELECT event, data FROM delivery.outbox WHERE data->>'endpoint_id' = $1 ORDER BY id`,
      [id],
    );
  }

  it('disables after 3 failed deliveries in a row, with a warning; later ones wait', async () => {
    const id = await endpoint('/dead');
    receiver.script('/dead', { status: 503 });
    for (let i = 0; i < 2; i++) expect(await settled(await delivery(id))).toBe('failed');
    expect(await view(id)).toMatchObject({ enabled: true, consecutive_failures: 2 });
    expect(await settled(await delivery(id))).toBe('failed');
    const disabled = await view(id);
    expect(disabled).toMatchObject({
      enabled: false,
      disabled_reason: 'auto',
      consecutive_failures: 3,
    });
    expect(Date.parse(disabled.disabled_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(warnings.filter((line) => line.includes(id))).toEqual([
      expect.stringContaining('disabled after 3 failed deliveries in a row'),
    ]);
    // The register's notice, in the outbox with the disable: once, with what the mail names.
    expect(await notices(id)).toEqual([
      {
        event: ENDPOINT_DISABLED_ROUTING_KEY,
        data: {
          workspace_id: workspace,
          endpoint_id: id,
          url: receiver.url('/dead'),
          reason: 'auto',
          consecutive_failures: 3,
          failing_since: expect.stringMatching(
            /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
          ) as string,
          disabled_at: disabled.disabled_at,
        },
      },
    ]);
    expect(parseEndpointDisabledNotice((await notices(id))[0]!.data)).not.toEqual(
      expect.any(String),
    );

    const waiting = await delivery(id);
    const sent = receiver.on('/dead').length;
    await new Promise((resolve) => setTimeout(resolve, 300)); // six scheduler rounds
    expect([await status(waiting), receiver.on('/dead').length]).toEqual(['pending', sent]);

    // A failed Test ping is sent, and leaves it disabled.
    const failedPing = await deliveries.test(id, workspace);
    expect(await settled(failedPing.delivery_id)).toBe('failed');
    expect(await view(id)).toMatchObject({ enabled: false, disabled_reason: 'auto' });
    expect(await notices(id)).toHaveLength(1); // failing on while disabled announces nothing

    // A delivered one enables it, ends the run, and what waited goes out.
    receiver.script('/dead', { status: 200 });
    const ping = await deliveries.test(id, workspace);
    expect(await settled(ping.delivery_id)).toBe('delivered');
    expect(await view(id)).toMatchObject({
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      consecutive_failures: 0,
    });
    expect(await settled(waiting)).toBe('delivered');

    // Both changes are the system's, in the feed with the statement that made them.
    const feed = await new ActivityLog('delivery').page(db.manager, workspace, {
      record_id: id,
      limit: 10,
    });
    expect(feed.map((entry) => [entry.action, entry.source, entry.actor.type])).toEqual([
      ['enabled', 'system', 'system'],
      ['disabled', 'system', 'system'],
    ]);
    expect(feed[1]?.changes).toEqual([{ field: 'enabled', from: 'true', to: 'false' }]);
    expect(await notices(id)).toHaveLength(1); // enabling again announces nothing
  });

  it('a delivered delivery ends the run', async () => {
    const id = await endpoint('/flaky');
    receiver.script('/flaky', { status: 500 });
    for (let i = 0; i < 2; i++) expect(await settled(await delivery(id))).toBe('failed');
    receiver.script('/flaky', { status: 204 });
    expect(await settled(await delivery(id))).toBe('delivered');
    receiver.script('/flaky', { status: 500 });
    for (let i = 0; i < 2; i++) expect(await settled(await delivery(id))).toBe('failed');
    expect(await view(id)).toMatchObject({ enabled: true, consecutive_failures: 2 });
  });

  it('enabling by hand ends the run too', async () => {
    const id = await endpoint('/by-hand');
    receiver.script('/by-hand', { status: 410 });
    for (let i = 0; i < 3; i++) expect(await settled(await delivery(id))).toBe('failed');
    expect(await view(id)).toMatchObject({ enabled: false, disabled_reason: 'auto' });
    expect(await notices(id)).toHaveLength(1);
    const enabled = await endpoints.update({
      workspace,
      id,
      enabled: true,
      actor: { id: 'usr_admin', email: 'admin@example.com' },
    });
    const [byHand] = await new ActivityLog('delivery').page(db.manager, workspace, {
      record_id: id,
      limit: 1,
    });
    expect(byHand).toMatchObject({
      action: 'enabled',
      source: 'console',
      actor: { type: 'member', id: 'usr_admin', name: 'admin@example.com' },
    });
    expect(enabled).toMatchObject({
      enabled: true,
      disabled_reason: null,
      consecutive_failures: 0,
    });
  });

  it('does not disable before the run is WEBHOOK_AUTO_DISABLE_AFTER_HOURS old', async () => {
    const id = await endpoint('/young');
    // Disabled (by hand) outside the transaction below, so the scheduler leaves it alone.
    await db.query(
      `UPDATE delivery.endpoints SET consecutive_failures = 5, failing_since = now(),
         enabled = false, disabled_reason = 'manual', disabled_at = now() WHERE id = $1`,
      [id],
    );
    /** A failed delivery recorded under a 24 h rule, the endpoint enabled only meanwhile. */
    const recordFailure = async () => {
      const deliveryId = await delivery(id);
      return db.transaction(async (manager) => {
        const enabled = `enabled = true, disabled_reason = NULL, disabled_at = NULL`;
        await manager.query(`UPDATE delivery.endpoints SET ${enabled} WHERE id = $1`, [id]);
        const leases = new DeliveryLeases(manager as unknown as DataSource, {
          afterFailures: 3,
          afterHours: 24,
        });
        const changes = await leases.record([
          {
            deliveryId,
            lease: '1970-01-01 00:00:00+00',
            attempt: 1,
            chain: 1,
            status: 'failed',
            waitMs: 0,
            result: {
              startedAt: new Date(),
              durationMs: 3,
              statusCode: 500,
              error: null,
              responseBody: '',
              requestHeaders: {},
              responseHeaders: {},
            },
          },
        ]);
        await manager.query(
          `UPDATE delivery.endpoints
           SET enabled = false, disabled_reason = 'manual', disabled_at = now()
           WHERE id = $1 AND enabled`,
          [id],
        );
        return changes;
      });
    };
    expect(await recordFailure()).toEqual([]);
    expect(await view(id)).toMatchObject({ consecutive_failures: 6 });
    await db.query(
      `UPDATE delivery.endpoints SET failing_since = now() - interval '25 hours' WHERE id = $1`,
      [id],
    );
    expect(await recordFailure()).toEqual([
      {
        id,
        workspaceId: workspace,
        url: receiver.url('/young'),
        change: 'auto_disabled',
        consecutiveFailures: 7,
      },
    ]);
  });
});
