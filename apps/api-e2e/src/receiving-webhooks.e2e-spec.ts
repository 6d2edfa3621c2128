import {
  WorkerAdminPatterns,
  type AssetDetail,
  type CreatedWebhookView,
  type DeliveryLogEntry,
  type EventEnvelope,
} from '@custodian/contracts';
import { envelopeErrors, eventually } from '@custodian/testing';
import { sign } from '@custodian/webhook-signature';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestStack, type Tenant } from './support/stack';

/** The receiver module exactly as docs/receiving-webhooks.md publishes it. */
interface ReceiverModule {
  createReceiver: (
    secret: string,
    onEvent: (envelope: EventEnvelope, delivery: { deliveryId: string; event: string }) => unknown,
  ) => Server;
}

interface RawRequest {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const GUIDE = join(__dirname, '..', '..', '..', 'docs', 'receiving-webhooks.md');

/** The one fenced ```js block of the guide, verbatim. */
function guideCode(): string {
  const blocks = [...readFileSync(GUIDE, 'utf8').matchAll(/^```js\n([\s\S]*?)^```$/gm)];
  expect(blocks).toHaveLength(1);
  return blocks[0]?.[1] ?? '';
}

/** POSTs raw bytes with the given headers; resolves with the status and body text. */
function post(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The headers of a recorded request a client would send again (the Custodian ones). */
function custodianHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of [
    'x-custodian-event',
    'x-custodian-delivery',
    'x-custodian-timestamp',
    'x-custodian-signature',
  ]) {
    out[name] = headers[name] as string;
  }
  return out;
}

describe('the verifier in docs/receiving-webhooks.md, against real deliveries (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50' } });
  const dir = mkdtempSync(join(tmpdir(), 'custodian-receiver-'));
  const onEvent = jest.fn();
  /** Every request the proxy passed on to the guide's server, as raw bytes and headers. */
  const seen: RawRequest[] = [];
  let proxy: Server;
  let server: Server;
  /** The guide's server, reached directly (the replays). */
  let url = '';
  let tenant: Tenant;
  let endpoint: CreatedWebhookView;

  beforeAll(async () => {
    const file = join(dir, 'custodian-receiver.js');
    writeFileSync(file, guideCode());
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createReceiver } = require(file) as ReceiverModule;
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    // The endpoint's URL is needed before its secret exists: Custodian delivers to a plain
    // recording proxy, which forwards the exact bytes and headers to the guide's server.
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        seen.push({ headers: req.headers, body });
        post(url, custodianHeaders(req.headers), body).then(
          (answer) => {
            res.writeHead(answer.status, { 'content-type': 'text/plain' });
            res.end(answer.body);
          },
          () => {
            res.writeHead(502);
            res.end('proxy: receiver unreachable');
          },
        );
      });
    });
    const proxyUrl = `http://127.0.0.1:${await listen(proxy)}/custodian`;
    endpoint = await stack.workerAdminCall<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
      workspace: tenant.workspace.id,
      url: proxyUrl,
      events: 'asset.created',
    });
    server = createReceiver(endpoint.secret, onEvent);
    url = `http://127.0.0.1:${await listen(server)}/custodian`;
  }, 30_000);

  afterAll(async () => {
    await closeServer(proxy);
    await closeServer(server);
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands a real asset.created on once, acknowledges a replay of it, refuses tampering and staleness', async () => {
    const created = await tenant.post<AssetDetail>('/assets', { name: 'Guide laptop' });
    expect(created.status).toBe(201);

    // The real delivery: verified, answered 200, handed on once.
    await eventually(() => {
      if (onEvent.mock.calls.length === 0) throw new Error('onEvent not called yet');
      return Promise.resolve();
    });
    expect(onEvent).toHaveBeenCalledTimes(1);
    const [envelope, delivery] = onEvent.mock.calls[0] as [
      EventEnvelope<AssetDetail>,
      { deliveryId: string; event: string },
    ];
    expect(envelope).toMatchObject({
      id: expect.stringMatching(/^evt_/) as string,
      event: 'asset.created',
      data: { id: created.body.id, name: 'Guide laptop' },
    });
    expect(envelopeErrors(envelope)).toEqual([]);
    expect(delivery).toEqual({
      deliveryId: expect.stringMatching(/^dlv_/) as string,
      event: 'asset.created',
    });
    const log = await eventually(async () => {
      const entries = await stack.workerAdminCall<DeliveryLogEntry[]>(
        WorkerAdminPatterns.deliveries,
        { endpoint: endpoint.id },
      );
      if (entries[0]?.status !== 'delivered') throw new Error(JSON.stringify(entries));
      return entries;
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      delivery_id: delivery.deliveryId,
      event_id: envelope.id,
      attempts: [{ attempt: 1, status_code: 200, response_body: 'ok' }],
    });

    expect(seen).toHaveLength(1);
    const [original] = seen as [RawRequest];
    const headers = custodianHeaders(original.headers);
    expect(headers['x-custodian-delivery']).toBe(delivery.deliveryId);
    expect(original.headers['user-agent']).toBe('Custodian-Webhooks/1.0');

    // The same bytes and headers again (a retry, or an attacker's replay within 300 s).
    const replay = await post(url, headers, original.body);
    expect(replay).toEqual({ status: 200, body: 'duplicate' });

    // One byte of the body changed, headers as signed.
    const tampered = Buffer.from(original.body);
    const at = tampered.indexOf('Guide laptop');
    expect(at).toBeGreaterThan(0);
    tampered[at] = 'g'.charCodeAt(0);
    const refused = await post(url, headers, tampered);
    expect(refused.status).toBe(401);
    expect(refused.body).toBe('signature mismatch');

    // Correctly signed with the real secret, under a new delivery id, but 301 s old.
    const stale = Math.floor(Date.now() / 1000) - 301;
    const staleAnswer = await post(
      url,
      {
        ...headers,
        'x-custodian-delivery': 'dlv_stale_replay',
        'x-custodian-timestamp': String(stale),
        'x-custodian-signature': sign(endpoint.secret, stale, original.body),
      },
      original.body,
    );
    expect(staleAnswer.status).toBe(401);
    expect(staleAnswer.body).toContain('300 s');

    // The same, fresh, is accepted: only the age was wrong.
    const now = Math.floor(Date.now() / 1000);
    const fresh = await post(
      url,
      {
        ...headers,
        'x-custodian-delivery': 'dlv_fresh_resend',
        'x-custodian-timestamp': String(now),
        'x-custodian-signature': sign(endpoint.secret, now, original.body),
      },
      original.body,
    );
    expect(fresh).toEqual({ status: 200, body: 'ok' });

    await new Promise((resolve) => setTimeout(resolve, 100));
    // The real delivery and the fresh re-send; never the replay, the tampered or the stale.
    expect(onEvent).toHaveBeenCalledTimes(2);
    expect((onEvent.mock.calls[1] as [EventEnvelope, { deliveryId: string }])[1].deliveryId).toBe(
      'dlv_fresh_resend',
    );
  });
});

function closeServer(server: Server | undefined): Promise<void> {
  if (!server?.listening) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Listens on a free loopback port; resolves with it. */
async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}
