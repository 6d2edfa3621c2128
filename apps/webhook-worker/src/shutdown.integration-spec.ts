import { planFactsQueueOf } from '@custodian/contracts';
import { openConnection } from '@custodian/messaging';
import {
  createTestDatabase,
  eventually,
  uniqueSuffix,
  type TestDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { startWorker } from './bootstrap';
import { loadWorkerConfig, type WorkerConfig } from './config/worker-config';
import { migrateWorker } from './migrate';
import { signingSecretCipher } from './webhooks/signing-secrets';

/**
 * The whole worker (Nest app, Postgres, RabbitMQ) stopped with app.close(), as on SIGTERM: the
 * attempt in flight finishes and is recorded before the database connections close, so a
 * deploy does not send it again once its lease runs out.
 */
describe('webhook worker graceful shutdown (integration)', () => {
  let database: TestDatabase;
  let pg: Client;
  let server: Server;
  let config: WorkerConfig;
  let app: NestFastifyApplication | null = null;
  let arrived = 0;
  const suffix = uniqueSuffix();

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateWorker(database.url);
    pg = new Client({ connectionString: database.url });
    await pg.connect();
    // Answers 200 after 0.8 s: the worker is closing by then.
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        arrived++;
        setTimeout(() => res.writeHead(200).end('ok'), 800);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await pg.query(
      `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
       VALUES ('whe_shutdown', 'wsp_test', $1, '{*}', $2)`,
      [`http://127.0.0.1:${port}/hook`, signingSecretCipher().encrypt('whsec_test')],
    );
    config = loadWorkerConfig({
      DATABASE_URL: database.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      HEALTH_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DELIVERY_INTERVAL_MS: '50',
      EVENTS_EXCHANGE: `custodian.events.t.${suffix}`,
      EVENTS_QUEUE: `custodian.webhook-worker.events.t.${suffix}`,
      EVENTS_DEAD_LETTER_EXCHANGE: `custodian.events.dead.t.${suffix}`,
      EVENTS_DEAD_LETTER_QUEUE: `custodian.events.dead.t.${suffix}`,
      WORKER_ADMIN_QUEUE: `custodian.webhook-worker.admin.t.${suffix}`,
    });
  }, 30_000);

  afterAll(async () => {
    await app?.close();
    await pg?.end();
    server?.closeAllConnections();
    server?.close();
    await database?.drop();
    const connection = await openConnection(config.RABBITMQ_URL, 'custodian-test-cleanup');
    try {
      const channel = await connection.createChannel();
      for (const queue of [
        config.EVENTS_QUEUE,
        config.EVENTS_DEAD_LETTER_QUEUE,
        config.WORKER_ADMIN_QUEUE,
        planFactsQueueOf(config.EVENTS_EXCHANGE, 'webhook-worker'),
      ]) {
        await channel.deleteQueue(queue);
      }
      await channel.deleteExchange(config.EVENTS_EXCHANGE);
      await channel.deleteExchange(config.EVENTS_DEAD_LETTER_EXCHANGE);
    } finally {
      await connection.close();
    }
  });

  it('records the attempt in flight, answered while the worker closes, before Postgres closes', async () => {
    const warnings: string[] = [];
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    try {
      app = await startWorker(config);
      // Its event's payload first: the delivery references it.
      await pg.query(
        `INSERT INTO delivery.event_payloads (event_id, payload) VALUES ('evt_shutdown', '{}')`,
      );
      await pg.query(
        `INSERT INTO delivery.deliveries (id, event_id, endpoint_id, workspace_id, event)
         VALUES ('dlv_shutdown', 'evt_shutdown', 'whe_shutdown', 'wsp_test', 'asset.created')`,
      );
      await eventually(
        () => {
          if (arrived === 0) throw new Error('not sent yet');
          return Promise.resolve();
        },
        { timeoutMs: 10_000, intervalMs: 10 },
      );
      const closing = app;
      app = null;
      await closing.close();
    } finally {
      warn.mockRestore();
    }
    const { rows } = await pg.query<{ status: string; attempts: number; leased: boolean }>(
      `SELECT status, attempts, coalesce(lease_until > now(), false) AS leased
       FROM delivery.deliveries WHERE id = 'dlv_shutdown'`,
    );
    expect(rows).toEqual([{ status: 'delivered', attempts: 1, leased: false }]);
    const log = await pg.query<{ attempt: number; status_code: number }>(
      `SELECT attempt, status_code FROM delivery.delivery_attempts
       WHERE delivery_id = 'dlv_shutdown'`,
    );
    expect(log.rows).toEqual([{ attempt: 1, status_code: 200 }]);
    expect(arrived).toBe(1);
    expect(warnings.filter((message) => message.includes('not recorded'))).toEqual([]);
  }, 30_000);
});
