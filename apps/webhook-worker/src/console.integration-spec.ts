import {
  WorkerConsoleRpc,
  planFactsQueueOf,
  type DeliveryDetailView,
  type RequestOf,
  type ReplyOf,
  type RpcContract,
} from '@custodian/contracts';
import { RmqRpcClient, deleteTopology } from '@custodian/messaging';
import { newId } from '@custodian/persistence';
import {
  createMigratedDatabase,
  domainRejection,
  eventually,
  uniqueSuffix,
  WebhookReceiver,
  type MigratedDatabase,
} from '@custodian/testing';
import { verify } from '@custodian/webhook-signature';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startWorker } from './bootstrap';
import { loadWorkerConfig, type WorkerConfig } from './config/worker-config';
import { workerDataSource } from './database/data-source';
import { insertPayload } from './delivery/testing/payloads';
import { migrateWorker } from './migrate';
import { signingSecretCipher } from './webhooks/signing-secrets';

/**
 * The console's messages (WorkerConsoleRpc) against the whole worker: its admin queue on
 * RabbitMQ, Postgres, the scheduler and a real HTTP receiver. Endpoints are stored directly
 * (creation asks the gateway for the plan: see console-endpoints.integration-spec.ts).
 */
describe('the console messages of the webhook worker (integration)', () => {
  const suffix = uniqueSuffix();
  const receiver = new WebhookReceiver();
  const cipher = signingSecretCipher();
  let store: MigratedDatabase;
  let config: WorkerConfig;
  let app: NestFastifyApplication;
  let client: RmqRpcClient;

  beforeAll(async () => {
    store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 2));
    await receiver.start();
    config = loadWorkerConfig({
      DATABASE_URL: store.database.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      HEALTH_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DELIVERY_INTERVAL_MS: '50',
      DELIVERY_TIMEOUT_MS: '1000',
      DELIVERY_LEASE_MS: '5000',
      DELIVERY_RETRY_DELAYS_MS: '20,20',
      DELIVERY_RETENTION_DAYS: '12',
      EVENTS_EXCHANGE: `custodian.events.t.${suffix}`,
      EVENTS_QUEUE: `custodian.webhook-worker.events.t.${suffix}`,
      EVENTS_DEAD_LETTER_EXCHANGE: `custodian.events.dead.t.${suffix}`,
      EVENTS_DEAD_LETTER_QUEUE: `custodian.events.dead.t.${suffix}`,
      WORKER_ADMIN_QUEUE: `custodian.webhook-worker.admin.t.${suffix}`,
    });
    app = await startWorker(config);
    client = new RmqRpcClient({
      url: config.RABBITMQ_URL,
      connectionName: 'custodian-console-test',
      queue: config.WORKER_ADMIN_QUEUE,
      timeoutMs: 5_000,
      serviceName: 'webhook-worker',
    });
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await receiver.stop();
    await store?.close();
    await deleteTopology(config.RABBITMQ_URL, 'custodian-test-cleanup', {
      queues: [
        config.EVENTS_QUEUE,
        config.EVENTS_DEAD_LETTER_QUEUE,
        config.WORKER_ADMIN_QUEUE,
        planFactsQueueOf(config.EVENTS_EXCHANGE, 'webhook-worker'),
      ],
      exchanges: [config.EVENTS_EXCHANGE, config.EVENTS_DEAD_LETTER_EXCHANGE],
    });
  });

  function send<C extends RpcContract>(contract: C, message: RequestOf<C>): Promise<ReplyOf<C>> {
    return client.send(contract, message);
  }

  /** An endpoint of `workspace` on the receiver's `path`, and its plain secret. */
  async function endpoint(workspace: string, path: string, events = ['*']) {
    const id = newId('whe');
    const secret = `whsec_${id}`;
    await store.db.query(
      `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
       VALUES ($1, $2, $3, $4, $5)`,
      [id, workspace, receiver.url(path), events, cipher.encrypt(secret)],
    );
    return { id, secret };
  }

  /** Sends a Test ping and waits until it is no longer pending; its detail. */
  async function pinged(workspace: string, id: string): Promise<DeliveryDetailView> {
    const test = await send(WorkerConsoleRpc.endpointTest, { workspace, id });
    return finished(workspace, test.delivery_id);
  }

  function finished(workspace: string, deliveryId: string): Promise<DeliveryDetailView> {
    return eventually(async () => {
      const detail = await send(WorkerConsoleRpc.deliveryGet, { workspace, id: deliveryId });
      if (detail.status === 'pending') throw new Error('still pending');
      return detail;
    });
  }

  describe('workspace isolation', () => {
    it('answers not_found for an id of another workspace, exactly as for an unknown id', async () => {
      const theirs = await endpoint('wsp_theirs', '/theirs');
      const delivery = await pinged('wsp_theirs', theirs.id);
      const mine = 'wsp_mine';
      const byId: Array<[string, (id: string) => Promise<unknown>]> = [
        ['endpointGet', (id) => send(WorkerConsoleRpc.endpointGet, { workspace: mine, id })],
        [
          'endpointUpdate',
          (id) =>
            send(WorkerConsoleRpc.endpointUpdate, {
              workspace: mine,
              id,
              enabled: false,
              description: 'taken over',
            }),
        ],
        ['secretReveal', (id) => send(WorkerConsoleRpc.secretReveal, { workspace: mine, id })],
        [
          'secretRotate',
          (id) => send(WorkerConsoleRpc.secretRotate, { workspace: mine, id, overlap_hours: 0 }),
        ],
        ['endpointTest', (id) => send(WorkerConsoleRpc.endpointTest, { workspace: mine, id })],
        [
          'deliverySearch',
          (id) => send(WorkerConsoleRpc.deliverySearch, { workspace: mine, endpoint: id }),
        ],
        [
          'deliveriesResend',
          (id) => send(WorkerConsoleRpc.deliveriesResend, { workspace: mine, endpoint: id }),
        ],
      ];
      for (const [name, call] of byId) {
        const foreign = await domainRejection(call(theirs.id));
        const unknown = await domainRejection(call('whe_unknown'));
        expect([name, foreign.code, foreign.message]).toEqual([
          name,
          'not_found',
          `webhook endpoint ${theirs.id} not found`,
        ]);
        expect([name, unknown.code]).toEqual([name, 'not_found']);
      }
      for (const contract of [WorkerConsoleRpc.deliveryGet, WorkerConsoleRpc.deliveryResend]) {
        const foreign = await domainRejection(
          send(contract, { workspace: mine, id: delivery.delivery_id }),
        );
        expect([contract.pattern, foreign.code, foreign.message]).toEqual([
          contract.pattern,
          'not_found',
          `delivery ${delivery.delivery_id} not found`,
        ]);
      }
      // Lists and searches of mine hold nothing of theirs; theirs is as it was.
      expect(await send(WorkerConsoleRpc.endpointList, { workspace: mine })).toEqual([]);
      const search = await send(WorkerConsoleRpc.deliverySearch, { workspace: mine });
      expect(search.data).toEqual([]);
      expect(await send(WorkerConsoleRpc.deliveriesResend, { workspace: mine })).toEqual({
        resent: 0,
      });
      const after = await send(WorkerConsoleRpc.endpointGet, {
        workspace: 'wsp_theirs',
        id: theirs.id,
      });
      expect(after).toMatchObject({ enabled: true, description: null, secret_rotation: null });
      const revealed = await send(WorkerConsoleRpc.secretReveal, {
        workspace: 'wsp_theirs',
        id: theirs.id,
      });
      expect(revealed).toEqual({ secret: theirs.secret, previous: null });
      // Only their own Test ping: mine did not send one.
      expect(receiver.on('/theirs')).toHaveLength(1);
    });
  });

  describe('editing an endpoint', () => {
    it('changes url, events and description; null clears the description', async () => {
      const { id } = await endpoint('wsp_edit', '/before');
      const edited = await send(WorkerConsoleRpc.endpointUpdate, {
        workspace: 'wsp_edit',
        id,
        url: receiver.url('/after'),
        events: ['asset.created', ' asset.updated ', 'asset.created'],
        description: 'Our CMDB',
      });
      expect(edited).toMatchObject({
        id,
        url: receiver.url('/after'),
        events: ['asset.created', 'asset.updated'],
        description: 'Our CMDB',
        enabled: true,
      });
      const cleared = await send(WorkerConsoleRpc.endpointUpdate, {
        workspace: 'wsp_edit',
        id,
        description: null,
        events: ['*'],
      });
      expect(cleared).toMatchObject({
        description: null,
        events: ['*'],
        url: receiver.url('/after'),
      });
      // The Test ping goes to the new url.
      await pinged('wsp_edit', id);
      expect(receiver.on('/after')).toHaveLength(1);
      expect(receiver.on('/before')).toEqual([]);
    });

    it('refuses bad input naming the field, and changes nothing', async () => {
      const { id } = await endpoint('wsp_edit', '/refused');
      const refusals = await Promise.all(
        [
          { events: ['asset.exploded'] },
          { events: ['*', 'asset.created'] },
          { events: [] },
          { events: 'asset.created' },
          { url: 'ftp://example.com/hook' },
          { url: null },
          { enabled: 'yes' },
          { description: 'x'.repeat(501) },
          { colour: 'red' },
        ].map((body) =>
          domainRejection(
            client.request(WorkerConsoleRpc.endpointUpdate.pattern, {
              workspace: 'wsp_edit',
              id,
              ...body,
            }),
          ),
        ),
      );
      expect(refusals.map((error) => [error.code, error.message])).toEqual([
        ['invalid_input', expect.stringContaining('unknown event key asset.exploded')],
        ['invalid_input', 'events is either * or a list of event keys'],
        ['invalid_input', 'events must name at least one event key, or "*"'],
        ['invalid_input', 'events must be a list of event keys, or ["*"]'],
        ['invalid_input', expect.stringContaining('url')],
        ['invalid_input', 'url must be a string'],
        ['invalid_input', 'enabled must be true or false'],
        ['invalid_input', 'description must be at most 500 characters'],
        ['invalid_input', 'unknown field colour'],
      ]);
      expect(await send(WorkerConsoleRpc.endpointGet, { workspace: 'wsp_edit', id })).toMatchObject(
        { url: receiver.url('/refused'), events: ['*'], enabled: true },
      );
    });
  });

  describe('enable and disable by hand', () => {
    it('a disabled endpoint gets nothing but a Test ping; its waiting deliveries go once enabled', async () => {
      const { id } = await endpoint('wsp_toggle', '/toggle');
      const disabled = await send(WorkerConsoleRpc.endpointUpdate, {
        workspace: 'wsp_toggle',
        id,
        enabled: false,
      });
      expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'manual' });
      expect(Date.parse(disabled.disabled_at!)).toBeGreaterThan(Date.now() - 60_000);
      // A delivery stored for it (as fan-out did before it was disabled) waits.
      const waiting = newId('dlv');
      const eventId = newId('evt');
      await insertPayload(store.db, eventId, { id: 'evt' });
      await store.db.query(
        `INSERT INTO delivery.deliveries (id, event_id, endpoint_id, workspace_id, event)
         VALUES ($1, $2, $3, 'wsp_toggle', 'asset.created')`,
        [waiting, eventId, id],
      );
      const ping = await pinged('wsp_toggle', id);
      expect(ping.status).toBe('delivered');
      // A manual disable is a person's decision: a delivered ping does not undo it.
      expect(
        await send(WorkerConsoleRpc.endpointGet, { workspace: 'wsp_toggle', id }),
      ).toMatchObject({ enabled: false, disabled_reason: 'manual' });
      expect(receiver.on('/toggle').map((r) => r.headers['x-custodian-event'])).toEqual(['ping']);

      const enabled = await send(WorkerConsoleRpc.endpointUpdate, {
        workspace: 'wsp_toggle',
        id,
        enabled: true,
      });
      expect(enabled).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });
      await finished('wsp_toggle', waiting);
      expect(receiver.on('/toggle').map((r) => r.headers['x-custodian-event'])).toEqual([
        'ping',
        'asset.created',
      ]);
    });
  });

  describe('secret rotation with an overlap', () => {
    it('signs with both secrets during the overlap, with the new one alone after it', async () => {
      const { id, secret: old } = await endpoint('wsp_rotate', '/rotate');
      const rotated = await send(WorkerConsoleRpc.secretRotate, {
        workspace: 'wsp_rotate',
        id,
        overlap_hours: 2,
      });
      expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(rotated.previous?.secret).toBe(old);
      const expires = Date.parse(rotated.previous!.expires_at);
      expect(Math.abs(expires - (Date.now() + 2 * 3600_000))).toBeLessThan(60_000);
      expect(await send(WorkerConsoleRpc.secretReveal, { workspace: 'wsp_rotate', id })).toEqual(
        rotated,
      );
      expect(
        await send(WorkerConsoleRpc.endpointGet, { workspace: 'wsp_rotate', id }),
      ).toMatchObject({ secret_rotation: { previous_expires_at: rotated.previous!.expires_at } });

      const during = await pinged('wsp_rotate', id);
      const [request] = receiver.on('/rotate');
      const check = (secret: string, r = request!) =>
        verify(
          secret,
          r.rawBody,
          String(r.headers['x-custodian-timestamp']),
          String(r.headers['x-custodian-signature']),
        );
      expect(String(request!.headers['x-custodian-signature']).split(', ')).toHaveLength(2);
      expect([check(rotated.secret), check(old)]).toEqual([{ ok: true }, { ok: true }]);
      // The log shows what was sent, both signatures included.
      expect(during.attempt_log[0]!.request_headers['x-custodian-signature']).toBe(
        request!.headers['x-custodian-signature'],
      );

      // The overlap ends.
      await store.db.query(
        `UPDATE delivery.endpoints SET previous_secret_expires_at = now() - interval '1 second'
         WHERE id = $1`,
        [id],
      );
      await pinged('wsp_rotate', id);
      const after = receiver.on('/rotate')[1]!;
      expect(String(after.headers['x-custodian-signature'])).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect([check(rotated.secret, after), check(old, after)]).toEqual([
        { ok: true },
        { ok: false, reason: 'signature_mismatch' },
      ]);
      expect(await send(WorkerConsoleRpc.secretReveal, { workspace: 'wsp_rotate', id })).toEqual({
        secret: rotated.secret,
        previous: null,
      });
    });

    it('with overlap_hours 0 (or left out: 24) and refuses more than a week', async () => {
      const { id } = await endpoint('wsp_rotate', '/rotate-now');
      const now = await send(WorkerConsoleRpc.secretRotate, {
        workspace: 'wsp_rotate',
        id,
        overlap_hours: 0,
      });
      expect(now.previous).toBeNull();
      const byDefault = await send(WorkerConsoleRpc.secretRotate, { workspace: 'wsp_rotate', id });
      expect(byDefault.previous?.secret).toBe(now.secret);
      const hours = (Date.parse(byDefault.previous!.expires_at) - Date.now()) / 3600_000;
      expect(Math.round(hours)).toBe(24);
      const refused = await domainRejection(
        send(WorkerConsoleRpc.secretRotate, { workspace: 'wsp_rotate', id, overlap_hours: 169 }),
      );
      expect([refused.code, refused.message]).toEqual([
        'invalid_input',
        'overlap_hours must be from 0 to 168',
      ]);
    });
  });
});
