import { AppliedWrites, planCopyWith } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { PLAN_CATALOG } from '@custodian/plans';
import { SecretCipher } from '@custodian/secret-cipher';
import {
  createMigratedDatabase,
  createTestDatabase,
  eventually,
  WebhookReceiver,
  type MigratedDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { verify } from '@custodian/webhook-signature';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig, type WorkerConfig } from '../config/worker-config';
import { workerDataSource } from '../database/data-source';
import { DeliveryScheduler } from '../delivery/delivery-scheduler';
import { FanOut } from '../delivery/fan-out';
import { migrateWorker } from '../migrate';
import { EndpointDeliveries } from '../delivery/endpoint-deliveries';
import { EndpointEvents } from './endpoint-events';
import { EndpointsService } from './endpoints.service';
import { SigningSecretRekeyer, signingSecretCipher } from './signing-secrets';

const keyList = (...ids: string[]) =>
  ids.map((id) => `${id}:${randomBytes(32).toString('base64')}`).join(',');

/**
 * Signing secrets on the real database: what a dump of delivery.endpoints holds, and that the
 * worker still signs with the secret `webhook create` returned.
 */
describe('webhook signing secrets at rest (integration)', () => {
  let store: MigratedDatabase;
  let db: DataSource;
  let config: WorkerConfig;
  let scheduler: DeliveryScheduler;
  let service: EndpointsService;
  let deliveries: EndpointDeliveries;
  let events: EndpointEvents;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    Logger.overrideLogger(false); // the rekeyer logs what it refuses, on purpose
    store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 4));
    db = store.db;
    await receiver.start();
    config = loadWorkerConfig({
      DATABASE_URL: store.database.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      DELIVERY_INTERVAL_MS: '50',
      DELIVERY_TIMEOUT_MS: '1000',
      DELIVERY_LEASE_MS: '5000',
      DELIVERY_RETRY_DELAYS_MS: '20,20',
    });
    scheduler = new DeliveryScheduler(db, config);
    scheduler.onApplicationBootstrap();
    events = new EndpointEvents();
    service = new EndpointsService(
      db,
      await planCopyWith(
        db,
        { schema: 'delivery', reader: 'webhook-worker' },
        {
          workspace_id: 'wsp_secrets',
          plan: 'pro',
          api_access: true,
          limits: PLAN_CATALOG.pro.limits,
        },
      ),
      config,
      new ActivityLog('delivery'),
      events,
      new AppliedWrites(db, 'delivery'),
    );
    deliveries = new EndpointDeliveries(db, service, new FanOut(db, scheduler), scheduler, events);
  }, 30_000);

  afterAll(async () => {
    await scheduler?.beforeApplicationShutdown();
    await receiver.stop();
    await store?.close();
  });

  function create(path: string) {
    return service.create({ workspace: 'wsp_secrets', url: receiver.url(path), events: '*' });
  }

  async function stored(id: string): Promise<string> {
    const [row] = await db.query<Array<{ secret: string }>>(
      `SELECT secret FROM delivery.endpoints WHERE id = $1`,
      [id],
    );
    return row!.secret;
  }

  it('keeps no secret text in the table, and create still returns the secret', async () => {
    const created = await create('/created');
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const dump = JSON.stringify(await db.query(`SELECT * FROM delivery.endpoints`));
    expect(dump).not.toContain('whsec_');
    expect(dump).not.toContain(created.secret.slice('whsec_'.length));
    expect(SecretCipher.keyIdOf(await stored(created.id))).toBe('dev');
  });

  it('signs the Test ping with the secret create returned, not with the stored form', async () => {
    const created = await create('/ping');
    const test = await deliveries.test(created.id);
    const request = await eventually(() => {
      const [first] = receiver.on('/ping');
      if (!first) throw new Error('no delivery yet');
      return Promise.resolve(first);
    });
    expect(request.headers['x-custodian-delivery']).toBe(test.delivery_id);
    const signed = (secret: string) =>
      verify(
        secret,
        request.rawBody,
        String(request.headers['x-custodian-timestamp']),
        String(request.headers['x-custodian-signature']),
      );
    expect(signed(created.secret)).toEqual({ ok: true });
    expect(signed(await stored(created.id))).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('refuses a plain secret in the table (a write that forgets to encrypt)', async () => {
    await expect(
      db.query(
        `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
         VALUES ('whe_plain', 'wsp_secrets', 'http://127.0.0.1:9/', '{*}', 'whsec_plain')`,
      ),
    ).rejects.toThrow(/endpoints_secret_encrypted/);
  });

  it('does not send a delivery whose secret does not decrypt: secret_unreadable, retried', async () => {
    const created = await create('/unreadable');
    const foreign = signingSecretCipher({ WEBHOOK_SECRET_KEYS: keyList('gone') });
    await db.query(`UPDATE delivery.endpoints SET secret = $2 WHERE id = $1`, [
      created.id,
      foreign.encrypt(created.secret),
    ]);
    const test = await deliveries.test(created.id);
    const [delivery] = await eventually(async () => {
      const log = await deliveries.deliveries({ endpoint: created.id });
      if (log[0]?.status !== 'failed') throw new Error(`not failed yet: ${JSON.stringify(log)}`);
      return log;
    });
    expect(delivery!.delivery_id).toBe(test.delivery_id);
    // Every attempt of the retry schedule, none of them sent.
    expect(delivery!.attempts.map((a) => [a.status_code, a.error])).toEqual([
      [null, 'secret_unreadable'],
      [null, 'secret_unreadable'],
      [null, 'secret_unreadable'],
    ]);
    expect(receiver.on('/unreadable')).toEqual([]);
  });

  describe('rotation: the rekeyer re-encrypts with the first key', () => {
    const [oldKey, newKey] = [keyList('old'), keyList('new')];
    const under = (keys: string) => signingSecretCipher({ WEBHOOK_SECRET_KEYS: keys });

    /** Endpoints of one workspace, each on its own URL (a workspace has one per URL). */
    async function endpoints(secrets: Array<[string, string]>): Promise<void> {
      await db.query(
        `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
         SELECT s.id, 'wsp_rotation', 'http://127.0.0.1:9/' || s.id, '{*}', s.secret
         FROM unnest($1::text[], $2::text[]) AS s (id, secret)`,
        [secrets.map(([id]) => id), secrets.map(([, secret]) => secret)],
      );
    }

    it('takes every secret under an older key, in batches, and leaves what it cannot read', async () => {
      await db.query(`DELETE FROM delivery.endpoints`);
      const plain = Array.from({ length: 5 }, (_, i) => `whsec_rotated_${i}`);
      await endpoints(plain.map((secret, i) => [`whe_old_${i}`, under(oldKey).encrypt(secret)]));
      await endpoints([['whe_lost', under(keyList('lost')).encrypt('whsec_lost')]]);
      const alreadyNew = under(newKey).encrypt('whsec_new');
      await endpoints([['whe_new', alreadyNew]]);

      const rotated = loadWorkerConfig({
        DATABASE_URL: store.database.url,
        WEBHOOK_SECRET_KEYS: `${newKey},${oldKey}`,
      });
      const rekeyer = new SigningSecretRekeyer(db, rotated);
      expect(await rekeyer.rekey(2)).toEqual({
        reencrypted: 5,
        batches: 3,
        unreadable: { lost: 1 },
      });

      const rows = await db.query<Array<{ id: string; secret: string }>>(
        `SELECT id, secret FROM delivery.endpoints WHERE id LIKE 'whe_old_%' ORDER BY id`,
      );
      // The new key alone reads them now: the old one can be dropped.
      expect(rows.map((row) => under(newKey).decrypt(row.secret))).toEqual(plain);
      expect(await stored('whe_new')).toBe(alreadyNew);
      expect(SecretCipher.keyIdOf(await stored('whe_lost'))).toBe('lost');

      expect(await rekeyer.rekey(2)).toEqual({
        reencrypted: 0,
        batches: 0,
        unreadable: { lost: 1 },
      });
    });

    it('re-encrypts a previous secret still signing during a rotation overlap too', async () => {
      await db.query(`DELETE FROM delivery.endpoints`);
      await endpoints([['whe_overlap', under(newKey).encrypt('whsec_current')]]);
      await db.query(
        `UPDATE delivery.endpoints
         SET previous_secret = $1, previous_secret_expires_at = now() + interval '1 hour'
         WHERE id = 'whe_overlap'`,
        [under(oldKey).encrypt('whsec_previous')],
      );
      const rotated = loadWorkerConfig({
        DATABASE_URL: store.database.url,
        WEBHOOK_SECRET_KEYS: `${newKey},${oldKey}`,
      });
      const rekeyer = new SigningSecretRekeyer(db, rotated);
      expect(await rekeyer.rekey()).toEqual({ reencrypted: 1, batches: 1, unreadable: {} });
      const [row] = await db.query<Array<{ secret: string; previous_secret: string }>>(
        `SELECT secret, previous_secret FROM delivery.endpoints WHERE id = 'whe_overlap'`,
      );
      expect(under(newKey).decrypt(row!.secret)).toBe('whsec_current');
      expect(under(newKey).decrypt(row!.previous_secret)).toBe('whsec_previous');
    });
  });
});

describe('the migration that encrypts the secrets (integration)', () => {
  const ENCRYPT = 'EncryptEndpointSecrets1763850000000';

  /** Undoes the migrations after ENCRYPT and ENCRYPT itself. */
  async function undoThroughEncrypt(db: DataSource): Promise<void> {
    for (;;) {
      const [last] = await db.query<Array<{ name: string }>>(
        `SELECT name FROM delivery.migrations ORDER BY id DESC LIMIT 1`,
      );
      await db.undoLastMigration({ transaction: 'each' });
      if (last?.name === ENCRYPT) return;
    }
  }

  it('encrypts secrets stored in plain text before it, with the env key; down decrypts', async () => {
    const database = await createTestDatabase();
    const db = workerDataSource(database.url, 1);
    try {
      await migrateWorker(database.url);
      await db.initialize();
      await undoThroughEncrypt(db);
      await db.query(
        `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
         SELECT 'whe_' || g, 'wsp_1', 'http://127.0.0.1:9/', '{*}', 'whsec_plain_' || g
         FROM generate_series(1, 3) g`,
      );
      expect((await migrateWorker(database.url))[0]).toBe(ENCRYPT);
      const rows = await db.query<Array<{ secret: string }>>(
        `SELECT secret FROM delivery.endpoints ORDER BY id`,
      );
      expect(rows.map((row) => row.secret).join()).not.toContain('whsec_');
      expect(rows.map((row) => signingSecretCipher().decrypt(row.secret))).toEqual([
        'whsec_plain_1',
        'whsec_plain_2',
        'whsec_plain_3',
      ]);

      await undoThroughEncrypt(db);
      const plain = await db.query<Array<{ secret: string }>>(
        `SELECT secret FROM delivery.endpoints ORDER BY id`,
      );
      expect(plain.map((row) => row.secret)).toEqual([
        'whsec_plain_1',
        'whsec_plain_2',
        'whsec_plain_3',
      ]);
    } finally {
      if (db.isInitialized) await db.destroy();
      await database.drop();
    }
  }, 30_000);
});
