import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSender, classify, errorKind, type OutgoingDelivery } from '../delivery/sender';
import { signingSecretCipher } from './signing-secrets';
import { ForbiddenAddressError, guardedLookup, type ResolveAll } from './ssrf-guard';

describe('SSRF guard at connect time (only loopback traffic; names resolved by a fake)', () => {
  let server: Server;
  let port: number;
  let received = 0;
  const senders: WebhookSender[] = [];
  const cipher = signingSecretCipher({ WEBHOOK_SECRET_KEYS: `k1:${'A'.repeat(43)}=` });

  beforeAll(async () => {
    server = createServer((req, res) => {
      received++;
      req.resume();
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await Promise.all(senders.map((sender) => sender.close()));
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => (received = 0));

  const fakeDns: ResolveAll = (host) => {
    const table: Record<string, string[]> = {
      'rebind.test': ['127.0.0.1'],
      'mixed.test': ['93.184.216.34', '127.0.0.1'],
      'mapped.test': ['::ffff:127.0.0.1'],
    };
    const addresses = table[host];
    if (!addresses) return Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
    return Promise.resolve(
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  function sender(allowPrivate: boolean): WebhookSender {
    const created = new WebhookSender(2_000, { allowPrivate, resolve: fakeDns, cipher });
    senders.push(created);
    return created;
  }
  const delivery = (url: string): OutgoingDelivery => ({
    url,
    secret: cipher.encrypt('whsec_test'),
    deliveryId: 'whd_test',
    event: 'ping',
    body: '{}',
  });

  it('refuses a literal loopback target without connecting', async () => {
    const result = await sender(false).send(delivery(`http://127.0.0.1:${port}/`));
    expect(result).toMatchObject({ statusCode: null, error: 'forbidden_address' });
    expect(classify(result)).toBe('failed');
    expect(received).toBe(0);
  });

  it('refuses a name that resolves to a forbidden address at connect time', async () => {
    for (const host of ['rebind.test', 'mixed.test', 'mapped.test']) {
      const result = await sender(false).send(delivery(`http://${host}:${port}/`));
      expect([host, result.error]).toEqual([host, 'forbidden_address']);
    }
    expect(received).toBe(0);
  });

  it('reports a name that does not resolve as dns', async () => {
    const result = await sender(false).send(delivery(`http://nowhere.test:${port}/`));
    expect(result.error).toBe('dns');
  });

  it('connects to loopback when private targets are allowed (dev, tests)', async () => {
    const result = await sender(true).send(delivery(`http://127.0.0.1:${port}/`));
    expect(result).toMatchObject({ statusCode: 200, error: null, responseBody: 'ok' });
    expect(received).toBe(1);
  });

  it('hands the vetted public addresses to the socket', async () => {
    const publicDns: ResolveAll = () =>
      Promise.resolve([
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ]);
    const lookup = guardedLookup(publicDns);
    const all = await new Promise<LookupAddress[]>((resolve, reject) =>
      lookup('hooks.example.com', { all: true }, (error, addresses) =>
        error ? reject(error) : resolve(addresses as LookupAddress[]),
      ),
    );
    expect(all.map((entry) => entry.address)).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
    const one = await new Promise<[string, number]>((resolve, reject) =>
      lookup('hooks.example.com', { family: 6 }, (error, address, family) =>
        error ? reject(error) : resolve([address as string, family ?? 0]),
      ),
    );
    expect(one).toEqual(['2606:2800:220:1::1', 6]);
  });

  it('names forbidden_address as a final error kind', () => {
    const error = new ForbiddenAddressError('rebind.test', '10.0.0.1', 'private');
    expect(error.message).toBe(
      'rebind.test resolves to 10.0.0.1, a forbidden webhook target (private)',
    );
    expect(errorKind(error, false)).toBe('forbidden_address');
    expect(errorKind(new TypeError('fetch failed', { cause: error }), false)).toBe(
      'forbidden_address',
    );
    expect(classify({ statusCode: null, error: 'forbidden_address' })).toBe('failed');
  });
});
