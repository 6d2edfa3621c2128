import { retryingFetch } from './retrying-fetch';

describe('retryingFetch: a write with its Idempotency-Key is sent again on no answer, 503, 504', () => {
  const waited: number[] = [];
  const wait = (ms: number) => {
    waited.push(ms);
    return Promise.resolve();
  };
  beforeEach(() => (waited.length = 0));

  function write(key: string | null = 'key-1'): Request {
    const headers = new Headers({ 'content-type': 'application/json' });
    if (key) headers.set('idempotency-key', key);
    return new Request('http://console.test/console/api/assets', {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Laptop' }),
    });
  }

  /** A base fetch answering from `outcomes` in turn, recording what each call sent. */
  function scripted(outcomes: Array<number | Error>) {
    const sent: Array<{ key: string | null; body: string }> = [];
    const base = async (request: Request) => {
      sent.push({ key: request.headers.get('idempotency-key'), body: await request.text() });
      const outcome = outcomes.shift();
      if (outcome instanceof Error) throw outcome;
      return new Response('{}', { status: outcome ?? 200 });
    };
    return { sent, base };
  }

  it('retries a dropped answer and a 503 with the same key and body, then returns the answer', async () => {
    const { sent, base } = scripted([new TypeError('Failed to fetch'), 503, 201]);
    const response = await retryingFetch(base, [10, 20], wait)(write());
    expect(response.status).toBe(201);
    expect(sent).toEqual([
      { key: 'key-1', body: '{"name":"Laptop"}' },
      { key: 'key-1', body: '{"name":"Laptop"}' },
      { key: 'key-1', body: '{"name":"Laptop"}' },
    ]);
    expect(waited).toEqual([10, 20]);
  });

  it('gives up after the last delay: the last 504 is the answer, the last network error thrown', async () => {
    const gateway = scripted([504, 504, 504, 504]);
    expect((await retryingFetch(gateway.base, [1, 1], wait)(write())).status).toBe(504);
    expect(gateway.sent).toHaveLength(3);
    const network = scripted([new TypeError('a'), new TypeError('b'), new TypeError('c')]);
    await expect(retryingFetch(network.base, [1, 1], wait)(write())).rejects.toThrow('c');
  });

  it('sends other refusals, reads and writes without a key once', async () => {
    const refused = scripted([409, 201]);
    expect((await retryingFetch(refused.base, [1], wait)(write())).status).toBe(409);
    expect(refused.sent).toHaveLength(1);
    const keyless = scripted([503, 201]);
    expect((await retryingFetch(keyless.base, [1], wait)(write(null))).status).toBe(503);
    expect(keyless.sent).toHaveLength(1);
  });
});
