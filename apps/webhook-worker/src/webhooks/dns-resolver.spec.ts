import { lookup } from 'node:dns/promises';
import { createSocket, type Socket } from 'node:dgram';
import { WebhookSender } from '../delivery/sender';
import { boundedResolver } from './dns-resolver';
import { signingSecretCipher } from './signing-secrets';

/**
 * A name server on a loopback UDP port: `ok.test` has one A record and no AAAA, `nx.test` does
 * not exist, `a-only.test` has an A record and its AAAA query is never answered, `silent.test`
 * (and anything else) is never answered.
 */
class NameServer {
  private socket!: Socket;
  queries = 0;

  async start(): Promise<string> {
    this.socket = createSocket('udp4');
    this.socket.on('message', (query, from) => {
      this.queries++;
      const answer = this.answer(query);
      if (answer) this.socket.send(answer, from.port, from.address);
    });
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', resolve));
    return `127.0.0.1:${this.socket.address().port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private answer(query: Buffer): Buffer | null {
    // The question starts after the 12-byte header: labels, then type and class.
    const labels: string[] = [];
    let at = 12;
    for (let length = query[at] ?? 0; length > 0; length = query[at] ?? 0) {
      labels.push(query.subarray(at + 1, at + 1 + length).toString('ascii'));
      at += length + 1;
    }
    const question = query.subarray(12, at + 5);
    const type = query.readUInt16BE(at + 1);
    let name = labels.join('.');
    if (name === 'a-only.test') {
      if (type !== 1) return null;
      name = 'ok.test';
    }
    if (name !== 'ok.test' && name !== 'nx.test') return null;
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(name === 'nx.test' ? 0x8183 : 0x8180, 2);
    header.writeUInt16BE(1, 4);
    const withA = name === 'ok.test' && type === 1;
    header.writeUInt16BE(withA ? 1 : 0, 6);
    if (!withA) return Buffer.concat([header, question]);
    const record = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 93, 184, 216, 34]);
    return Buffer.concat([header, question, record]);
  }
}

describe('boundedResolver (c-ares against a name server on loopback)', () => {
  const server = new NameServer();
  let address: string;

  beforeAll(async () => {
    address = await server.start();
  });
  afterAll(() => server.stop());

  it('resolves the addresses a name has, A and AAAA asked for together', async () => {
    const resolve = boundedResolver({ timeoutMs: 1_000, servers: [address] });
    await expect(resolve('ok.test')).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('resolves a name whose AAAA query is never answered by its A record, without waiting the deadline', async () => {
    const resolve = boundedResolver({ timeoutMs: 2_000, servers: [address] });
    const started = performance.now();
    await expect(resolve('a-only.test')).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('answers a literal address without a query', async () => {
    const before = server.queries;
    const resolve = boundedResolver({ timeoutMs: 1_000, servers: [address] });
    await expect(resolve('2001:db8::1')).resolves.toEqual([{ address: '2001:db8::1', family: 6 }]);
    expect(server.queries).toBe(before);
  });

  it('answers localhost and its subdomains as loopback without a query (RFC 6761)', async () => {
    const before = server.queries;
    const resolve = boundedResolver({ timeoutMs: 1_000, servers: [address] });
    for (const name of ['localhost', 'LOCALHOST.', 'api.localhost']) {
      await expect(resolve(name)).resolves.toEqual([
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]);
    }
    expect(server.queries).toBe(before);
  });

  it('fails a name that does not exist with ENOTFOUND', async () => {
    const resolve = boundedResolver({ timeoutMs: 1_000, servers: [address] });
    await expect(resolve('nx.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('gives up on a name server that never answers at its deadline, with ETIMEOUT', async () => {
    const resolve = boundedResolver({ timeoutMs: 200, servers: [address] });
    const started = performance.now();
    await expect(resolve('silent.test')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    expect(performance.now() - started).toBeLessThan(600);
  });

  it('counts the wait for a turn within the deadline', async () => {
    const resolve = boundedResolver({ timeoutMs: 200, concurrency: 1, servers: [address] });
    const started = performance.now();
    const all = await Promise.allSettled([resolve('silent.test'), resolve('ok.test')]);
    expect(performance.now() - started).toBeLessThan(600);
    expect(all.map((each) => each.status)).toEqual(['rejected', 'rejected']);
  });

  it('leaves the shared thread pool free while names hang: getaddrinfo still answers', async () => {
    const resolve = boundedResolver({ timeoutMs: 1_000, servers: [address] });
    const hanging = Array.from({ length: 8 }, () => resolve('silent.test').catch(() => null));
    const started = performance.now();
    await lookup('localhost');
    expect(performance.now() - started).toBeLessThan(300);
    await Promise.all(hanging);
  });

  it('fails a delivery to a name whose DNS never answers as dns, well before the attempt timeout', async () => {
    const sender = new WebhookSender(5_000, {
      allowPrivate: false,
      resolve: boundedResolver({ timeoutMs: 200, servers: [address] }),
    });
    try {
      const result = await sender.send({
        url: 'https://silent.test/hook',
        secret: signingSecretCipher().encrypt('whsec_test'),
        deliveryId: 'whd_test',
        event: 'ping',
        body: '{}',
      });
      expect(result).toMatchObject({ statusCode: null, error: 'dns' });
      expect(result.durationMs).toBeLessThan(1_000);
    } finally {
      await sender.close();
    }
  });
});
