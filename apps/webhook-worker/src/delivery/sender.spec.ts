import { SecretCipher } from '@custodian/secret-cipher';
import { verify } from '@custodian/webhook-signature';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSender, classify, errorKind } from './sender';

describe('delivery classification (spec 3, webhook delivery)', () => {
  it('delivers on any 2xx', () => {
    for (const status of [200, 201, 204, 299]) {
      expect(classify({ statusCode: status, error: null })).toBe('delivered');
    }
  });

  it('retries network errors, timeouts, 408, 429 and every 5xx', () => {
    expect(classify({ statusCode: null, error: 'timeout' })).toBe('retry');
    expect(classify({ statusCode: null, error: 'connection_refused' })).toBe('retry');
    for (const status of [408, 429, 500, 502, 503, 504, 599]) {
      expect(classify({ statusCode: status, error: null })).toBe('retry');
    }
  });

  it('fails at once on other 4xx and on redirects (not followed)', () => {
    for (const status of [400, 401, 403, 404, 410, 422, 301, 302, 307]) {
      expect(classify({ statusCode: status, error: null })).toBe('failed');
    }
  });

  it('names the error kind of a request without a status', () => {
    expect(errorKind(new Error('aborted'), true)).toBe('timeout');
    expect(errorKind(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), false)).toBe(
      'connection_refused',
    );
    const dns = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });
    expect(errorKind(dns, false)).toBe('dns');
    expect(
      errorKind(Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }), false),
    ).toBe('timeout');
    expect(errorKind(Object.assign(new Error('x'), { code: 'ECONNRESET' }), false)).toBe('network');
  });
});

describe('WebhookSender signs with the decrypted secret (loopback only)', () => {
  const keys = (id: string, fill: string) => `${id}:${fill.repeat(43)}=`;
  const cipher = SecretCipher.fromSetting(`${keys('k2', 'B')},${keys('k1', 'A')}`, 'KEYS');
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let server: Server;
  let sender: WebhookSender;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    sender = new WebhookSender(2_000, { allowPrivate: true, cipher });
  });
  afterAll(async () => {
    await sender.close();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => (received.length = 0));

  const send = (secret: string) =>
    sender.send({ url, secret, deliveryId: 'dlv_1', event: 'ping', body: '{"a":1}' });

  it('signs with the plain secret, whichever listed key encrypted it', async () => {
    const underOld = SecretCipher.fromSetting(keys('k1', 'A'), 'KEYS').encrypt('whsec_one');
    for (const stored of [cipher.encrypt('whsec_one'), underOld]) {
      expect(await send(stored)).toMatchObject({ statusCode: 200, error: null });
    }
    expect(received).toHaveLength(2);
    for (const { headers, body } of received) {
      const check = (secret: string) =>
        verify(
          secret,
          body,
          String(headers['x-custodian-timestamp']),
          String(headers['x-custodian-signature']),
        );
      expect(check('whsec_one')).toEqual({ ok: true });
    }
  });

  it('sends nothing for a secret it cannot decrypt (unknown key, tampered, plain): retried', async () => {
    const stored = cipher.encrypt('whsec_one');
    const tampered = `${stored.slice(0, -2)}${stored.endsWith('AA') ? 'BB' : 'AA'}`;
    const unknown = SecretCipher.fromSetting(keys('k9', 'C'), 'KEYS').encrypt('whsec_one');
    for (const secret of [unknown, tampered, 'whsec_one']) {
      const result = await send(secret);
      expect(result).toMatchObject({ statusCode: null, error: 'secret_unreadable' });
      expect(classify(result)).toBe('retry');
    }
    expect(received).toHaveLength(0);
  });
});
