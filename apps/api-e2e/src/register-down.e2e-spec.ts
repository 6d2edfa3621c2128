import type { AssetDetail, AssetSummary, ErrorBody, PingView } from '@custodian/contracts';
import type { ApiResponse } from '@custodian/testing';
import { TestStack, type Tenant } from './support/stack';

const REGISTER_TIMEOUT_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed<T>(call: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await call();
  return [result, performance.now() - started];
}

/** 504 (timed out) or 503 (unreachable), in the error body. */
function expectUnavailable(response: ApiResponse<unknown>): void {
  expect([503, 504]).toContain(response.status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = response.body as ErrorBody;
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'statusCode']);
  expect(body.statusCode).toBe(response.status);
  expect(body.error).toBe(response.status === 504 ? 'Gateway Timeout' : 'Service Unavailable');
  expect(body.message).toMatch(/register/);
}

describe('gateway with the register down (e2e)', () => {
  const stack = new TestStack({ registerTimeoutMs: REGISTER_TIMEOUT_MS });
  let tenant: Tenant;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);

  afterAll(async () => {
    if (!stack.register) await stack.startRegister();
    await stack.stop();
  });

  it('answers GET /assets quickly with 504/503 while the register is down, 200 once it is back', async () => {
    const seeded = await tenant.post<AssetDetail>('/assets', { name: 'Before outage' });
    expect(seeded.status).toBe(201);

    await stack.stopRegister();
    try {
      const [down, elapsed] = await timed(() => tenant.get('/assets'));
      expectUnavailable(down);
      expect(elapsed).toBeLessThan(5_000);
      // The answer comes from the timeout, not from anything faster that bypasses it.
      if (down.status === 504) expect(elapsed).toBeGreaterThanOrEqual(REGISTER_TIMEOUT_MS - 50);

      // Routes the gateway answers alone keep working.
      const ping = await tenant.get<PingView>('/ping');
      expect(ping.status).toBe(200);
    } finally {
      await stack.startRegister();
    }

    const up = await tenant.get<AssetSummary[]>('/assets');
    expect(up.status).toBe(200);
    expect(up.body.map((asset) => asset.id)).toEqual([seeded.body.id]);
  }, 15_000);

  it('never executes later a create that timed out while the register was down', async () => {
    await stack.stopRegister();
    let timedOut: ApiResponse<unknown>;
    let elapsed: number;
    try {
      [timedOut, elapsed] = await timed(() =>
        tenant.post('/assets', { name: 'Sent during outage', asset_tag: 'GHOST-1' }),
      );
      expectUnavailable(timedOut);
      expect(elapsed).toBeLessThan(5_000);
    } finally {
      await stack.startRegister();
    }
    await sleep(1_500);

    const list = await tenant.get<AssetSummary[]>('/assets?search=during%20outage');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    const all = await tenant.get<AssetSummary[]>('/assets');
    expect(all.body.map((asset) => asset.name)).not.toContain('Sent during outage');

    // The tag is still free: nothing was written under it.
    const retry = await tenant.post<AssetDetail>('/assets', {
      name: 'Sent after outage',
      asset_tag: 'GHOST-1',
    });
    expect(retry.status).toBe(201);
    expect(retry.body.asset_tag).toBe('GHOST-1');
  }, 15_000);

  it('serves reads and writes normally after the restarts', async () => {
    const created = await tenant.post<AssetDetail>('/assets', { name: 'After restarts' });
    expect(created.status).toBe(201);
    const [fetched, elapsed] = await timed(() =>
      tenant.get<AssetDetail>(`/assets/${created.body.id}`),
    );
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);
    expect(elapsed).toBeLessThan(REGISTER_TIMEOUT_MS);
  });
});
