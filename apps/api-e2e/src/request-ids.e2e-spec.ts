import {
  WorkerAdminPatterns,
  type AssetDetail,
  type CreatedWebhookView,
} from '@custodian/contracts';
import { eventually, WebhookReceiver } from '@custodian/testing';
import { randomUUID } from 'node:crypto';
import { TestStack, type Tenant } from './support/stack';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The JSON lines of an app's log; the rest (a stack trace, a banner) is left out. */
function jsonLines(log: string | undefined): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  for (const line of (log ?? '').split('\n')) {
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed === 'object' && parsed !== null) {
        lines.push(parsed as Record<string, unknown>);
      }
    } catch {
      // not a JSON line
    }
  }
  return lines;
}

/**
 * Issue 15, item 1: every response names its request in X-Request-Id (the client's when
 * well-formed), and the id follows the request over RabbitMQ into the register, into the outbox
 * row its write leaves, onto the event message, the stored delivery and the worker's lines for
 * each attempt.
 */
describe('request ids across every hop (e2e)', () => {
  const stack = new TestStack({
    env: {
      // Debug: the register logs each RPC it serves, the worker each attempt.
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      OUTBOX_POLL_MS: '50',
      DELIVERY_INTERVAL_MS: '50',
    },
  });
  const receiver = new WebhookReceiver();
  let tenant: Tenant;

  beforeAll(async () => {
    await receiver.start();
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);

  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
  });

  it("echoes the client's well-formed X-Request-Id", async () => {
    const id = `client-${randomUUID()}`;
    const response = await tenant.request('/ping', { headers: { 'x-request-id': id } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe(id);
  });

  it('makes up an id when there is none, or when the one sent is malformed', async () => {
    const none = await tenant.get('/ping');
    expect(none.headers.get('x-request-id')).toMatch(UUID);
    const other = await tenant.get('/ping');
    expect(other.headers.get('x-request-id')).not.toBe(none.headers.get('x-request-id'));
    for (const bad of ['has spaces', 'x'.repeat(129), '-leading-dash', 'semi;colon']) {
      const response = await tenant.request('/ping', { headers: { 'x-request-id': bad } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    }
  });

  it('names errors too, whose bodies keep exactly the three fields', async () => {
    const cases = [
      await stack.request('/assets', { headers: { 'x-request-id': 'no-key-1' } }),
      await tenant.request('/nowhere', { headers: { 'x-request-id': 'not-found-1' } }),
      await tenant.request('/assets', {
        method: 'POST',
        body: { name: 7 },
        headers: { 'x-request-id': 'bad-body-1' },
      }),
    ];
    expect(cases.map((response) => response.status)).toEqual([401, 404, 400]);
    expect(cases.map((response) => response.headers.get('x-request-id'))).toEqual([
      'no-key-1',
      'not-found-1',
      'bad-body-1',
    ]);
    for (const response of cases) {
      expect(Object.keys(response.body as object).sort()).toEqual([
        'error',
        'message',
        'statusCode',
      ]);
    }
  });

  it('follows POST /assets from the gateway to the register, the outbox, the event and each delivery attempt', async () => {
    const requestId = `trace-${randomUUID()}`;
    await stack.workerAdminCall<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
      workspace: tenant.workspace.id,
      url: receiver.url('/traced'),
      events: 'asset.created',
    });
    const created = await tenant.request<AssetDetail>('/assets', {
      method: 'POST',
      body: { name: 'Traced laptop' },
      headers: { 'x-request-id': requestId },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe(requestId);

    await eventually(() => {
      if (receiver.on('/traced').length === 0) throw new Error('no delivery yet');
      return Promise.resolve();
    });
    const [outbox] = await stack.query<{ context: unknown }>(
      `SELECT context FROM register.outbox WHERE event = 'asset.created' AND data->>'id' = $1`,
      [created.body.id],
    );
    expect(outbox?.context).toEqual({ 'x-request-id': requestId });
    const [delivery] = await stack.query<{ id: string; context: unknown }>(
      `SELECT d.id, p.context FROM delivery.deliveries d
         JOIN delivery.event_payloads p ON p.event_id = d.event_id
       WHERE p.payload->'data'->>'id' = $1`,
      [created.body.id],
    );
    expect(delivery?.context).toEqual({ 'x-request-id': requestId });

    // The worker logs the attempt once its answer is in; the receiver may see it first.
    const logs = await eventually(() => {
      const all = stack.logs();
      const worker = jsonLines(all['worker.log']).filter((line) => line.requestId === requestId);
      if (!worker.some((line) => String(line.msg).includes(delivery!.id))) {
        throw new Error('no attempt line yet');
      }
      return Promise.resolve(all);
    });
    const gateway = jsonLines(logs['gateway.log']).filter((line) => line.requestId === requestId);
    expect(gateway.map((line) => line.msg)).toContain('request completed');
    const register = jsonLines(logs['register.log']).filter((line) => line.requestId === requestId);
    expect(register.map((line) => String(line.msg))).toContainEqual(
      expect.stringMatching(/^assets\.create on .*: ok in [\d.]+ ms$/),
    );
    const worker = jsonLines(logs['worker.log']).filter((line) => line.requestId === requestId);
    expect(worker.map((line) => String(line.msg))).toContainEqual(
      expect.stringMatching(
        new RegExp(`^delivery ${delivery!.id} \\(asset\\.created\\).*: 200 in`),
      ),
    );
    // No line of another request, and no background line, carries this id.
    for (const line of [...register, ...worker]) {
      expect(String(line.msg)).not.toMatch(/^(outbox|leases|dropping)/);
    }
  });
});
