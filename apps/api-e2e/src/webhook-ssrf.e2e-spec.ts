import {
  DomainError,
  WorkerAdminPatterns,
  type DeliveryLogEntry,
  type WebhookTestView,
} from '@custodian/contracts';
import { SecretCipher } from '@custodian/secret-cipher';
import { eventually, WebhookReceiver } from '@custodian/testing';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { TestStack, type Tenant } from './support/stack';

/**
 * The SSRF guard in production mode (private targets not allowed): checked at creation and
 * again at connect time. No traffic leaves the machine: only `localhost` is resolved, and the
 * only server is a local receiver that must get nothing.
 */
describe('webhook SSRF guard, production mode (e2e)', () => {
  // The rows below are written here, so their secrets are encrypted with the worker's key.
  const secretKeys = `e2e:${randomBytes(32).toString('base64')}`;
  const stack = new TestStack({
    env: {
      WEBHOOK_SECRET_KEYS: secretKeys,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
      DELIVERY_TIMEOUT_MS: '500',
      DELIVERY_LEASE_MS: '5000',
      DELIVERY_INTERVAL_MS: '50',
    },
  });
  const receiver = new WebhookReceiver();
  let tenant: Tenant;
  let db: Client;

  beforeAll(async () => {
    await receiver.start();
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  }, 30_000);

  afterAll(async () => {
    await db?.end();
    await stack.stop();
    await receiver.stop();
  });

  async function createRefused(url: string): Promise<DomainError> {
    const error = await stack
      .workerAdminCall(WorkerAdminPatterns.webhookCreate, {
        workspace: tenant.workspace.id,
        url,
        events: '*',
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid_input');
    return error as DomainError;
  }

  it('refuses http:// targets (https only)', async () => {
    expect((await createRefused('http://hooks.example.com/in')).message).toBe('url must use https');
  });

  it('refuses literal loopback, IPv4-mapped loopback and localhost', async () => {
    expect((await createRefused('https://127.0.0.1/')).message).toContain('127.0.0.1');
    expect((await createRefused('https://[::ffff:127.0.0.1]/')).message).toContain(
      'private or loopback',
    );
    expect((await createRefused('https://localhost/')).message).toContain('localhost');
    expect((await createRefused('https://169.254.169.254/latest/')).message).toContain(
      '169.254.169.254',
    );
  });

  it('refuses at connect time a target that got past creation: one forbidden_address attempt, nothing sent', async () => {
    // Stands for a name that resolved publicly at creation and was rebound to loopback since:
    // rows inserted directly, bypassing the check at creation. A literal address is refused by
    // the connector; `localhost` by the guarded lookup (it resolves to loopback).
    const port = new URL(receiver.url('/')).port;
    for (const [id, url] of [
      [`whe_ssrf_literal_${stack.suffix}`, `https://127.0.0.1:${port}/rebound`],
      [`whe_ssrf_name_${stack.suffix}`, `https://localhost:${port}/rebound`],
    ] as const) {
      await db.query(
        `INSERT INTO delivery.endpoints (id, workspace_id, url, events, description, secret)
         VALUES ($1, $2, $3, $4, NULL, $5)`,
        // Subscribed to one event nothing here emits, so only the Test ping is delivered.
        [
          id,
          tenant.workspace.id,
          url,
          ['asset.deleted'],
          SecretCipher.fromSetting(secretKeys, 'WEBHOOK_SECRET_KEYS').encrypt('whsec_ssrf-test'),
        ],
      );
      const test = await stack.workerAdminCall<WebhookTestView>(WorkerAdminPatterns.webhookTest, {
        id,
      });
      const log = await eventually(
        async () => {
          const entries = await stack.workerAdminCall<DeliveryLogEntry[]>(
            WorkerAdminPatterns.deliveries,
            { endpoint: id },
          );
          if (entries[0]?.status !== 'failed') {
            throw new Error(`not failed yet: ${JSON.stringify(entries)}`);
          }
          return entries;
        },
        { timeoutMs: 8_000, intervalMs: 50 },
      );
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ delivery_id: test.delivery_id, status: 'failed' });
      expect(log[0]!.attempts).toHaveLength(1);
      expect(log[0]!.attempts[0]).toMatchObject({
        attempt: 1,
        status_code: null,
        error: 'forbidden_address',
        response_body: null,
      });
    }
    expect(receiver.received).toHaveLength(0);
  });
});
