import {
  GatewayAdminPatterns,
  type AssetDetail,
  type ErrorBody,
  type WorkspaceView,
} from '@custodian/contracts';
import { httpRequest, type ApiResponse } from '@custodian/testing';
import { Tenant, TestStack } from './support/stack';

const LIMIT_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-quota-limit',
  'x-quota-used',
  'x-quota-remaining',
];

function limitHeaders(response: ApiResponse): Record<string, string | null> {
  return Object.fromEntries(LIMIT_HEADERS.map((name) => [name, response.headers.get(name)]));
}

function header(response: ApiResponse, name: string): number {
  const value = response.headers.get(name);
  if (value === null) throw new Error(`${name} missing on a ${response.status}`);
  return Number(value);
}

/**
 * Waits, if needed, until at least `seconds` remain in the current minute, so a burst of
 * requests lands in one fixed window (windows.ts: Math.floor(now / 60 s)).
 */
async function freshWindow(seconds = 4): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Unix seconds of the first instant of the next calendar month in UTC. */
function endOfUtcMonth(): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000;
}

/** Rate limits, monthly quotas and plan changes, over HTTP (spec 7 and 8; DECISIONS: Plans). */
describe('rate limits, quotas and plans (e2e)', () => {
  // These tests count; a gateway that gave up on a starved Redis after 100 ms would serve some
  // requests uncounted by design (redis-down.e2e-spec.ts tests that), so they wait longer.
  const stack = new TestStack({ env: { REDIS_COMMAND_TIMEOUT_MS: '2000' } });

  beforeAll(() => stack.start(), 30_000);
  afterAll(() => stack.stop());

  async function limited(limits: Record<string, string>, plan: 'pro' | 'business' = 'pro') {
    const tenant = await stack.tenant(plan, 'write', { planRateLimit: true });
    const workspace = await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      ...limits,
    });
    return new Tenant(stack, workspace, tenant.key);
  }

  // Starting the second gateway process takes a few seconds of the test's time.
  it('is exact across two gateway processes: 100 simultaneous requests, limit 40', async () => {
    const second = await stack.startExtraGateway();
    const tenant = await limited({ rate_per_minute: '40' });
    const auth = { authorization: `Bearer ${tenant.key.key}` };
    await freshWindow();

    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const base = i % 2 === 0 ? stack.baseUrl : second;
        return httpRequest<ErrorBody>(`${base}${i % 4 < 2 ? '/ping' : '/assets'}`, {
          headers: auth,
        });
      }),
    );

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(40);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60);
    // Both processes admitted some and refused some: the counter is shared, not per process.
    for (const parity of [0, 1]) {
      const mine = responses.filter((_, i) => i % 2 === parity).map((r) => r.status);
      expect(mine).toContain(429);
    }
    const remaining = responses
      .filter((response) => response.status === 200)
      .map((response) => header(response, 'x-ratelimit-remaining'))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 40 }, (_, i) => i));
    for (const response of responses.filter((r) => r.status === 429)) {
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(response.body.message).toBe(
        'Rate limit of 40 requests per minute exceeded on the pro plan',
      );
    }
    // /assets counted in the quota, /ping did not: 20 of the 40 admitted were /assets... or
    // whatever the split was; the quota equals the admitted non-ping requests exactly.
    const admittedAssets = responses.filter((r, i) => r.status === 200 && i % 4 >= 2).length;
    const next = await tenant.get('/assets');
    expect(next.status).toBe(429);
    expect(header(next, 'x-quota-used')).toBe(admittedAssets);
  }, 30_000);

  it('counts down X-RateLimit-Remaining and X-Quota-* on sequential requests', async () => {
    const tenant = await stack.tenant('pro', 'write', { planRateLimit: true });
    await freshWindow();
    const seen: Array<Record<string, string | null>> = [];
    for (let i = 0; i < 5; i++) {
      const response = await tenant.get('/assets');
      expect(response.status).toBe(200);
      seen.push(limitHeaders(response));
    }
    const reset = Number(seen[0]!['x-ratelimit-reset']);
    expect(reset % 60).toBe(0);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 60);
    expect(seen).toEqual(
      [1, 2, 3, 4, 5].map((used) => ({
        'x-ratelimit-limit': '120',
        'x-ratelimit-remaining': String(120 - used),
        'x-ratelimit-reset': String(reset),
        'x-quota-limit': '100000',
        'x-quota-used': String(used),
        'x-quota-remaining': String(100_000 - used),
      })),
    );
  });

  it('answers 429 with Retry-After to the window reset; a 429 counts in neither limit', async () => {
    const tenant = await limited({ rate_per_minute: '3' });
    await freshWindow();
    for (let i = 0; i < 3; i++) expect((await tenant.get('/assets')).status).toBe(200);

    const refused = await tenant.get<ErrorBody>('/assets');
    const nowSeconds = Date.now() / 1000;
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Rate limit of 3 requests per minute exceeded on the pro plan',
    });
    const retryAfter = refused.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    const untilReset = header(refused, 'x-ratelimit-reset') - nowSeconds;
    expect(Math.abs(Number(retryAfter) - untilReset)).toBeLessThanOrEqual(1);
    expect(limitHeaders(refused)).toMatchObject({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'x-quota-used': '3',
    });
    // More refusals, on a quota-counted route and on /ping: still 3 used.
    expect((await tenant.get('/ping')).status).toBe(429);
    const again = await tenant.get('/assets');
    expect(again.status).toBe(429);
    expect(again.headers.get('x-quota-used')).toBe('3');

    // Lift the limit: the window holds the 3 admitted requests only, the quota too.
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      rate_per_minute: '10',
    });
    const after = await tenant.get('/assets');
    expect(after.status).toBe(200);
    expect(limitHeaders(after)).toMatchObject({
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '6',
      'x-quota-used': '4',
    });
  });

  it('puts the limit headers on 200, 201, 400, 403, 404 and 429 responses', async () => {
    const tenant = await limited({ rate_per_minute: '6' });
    const reader = new Tenant(
      stack,
      tenant.workspace,
      await stack.createKey(tenant.workspace.id, 'read'),
    );
    await freshWindow();
    const responses: Array<[number, ApiResponse]> = [
      [200, await tenant.get('/assets')],
      [201, await tenant.post<AssetDetail>('/assets', { name: 'Desk' })],
      [400, await tenant.post('/assets', { name: 42 })],
      [403, await reader.post('/assets', { name: 'Chair' })],
      [404, await tenant.get('/assets/ast_doesnotexist')],
    ];
    await tenant.get('/assets');
    await tenant.get('/assets');
    responses.push([429, await tenant.get('/assets')]);

    for (const [status, response] of responses) {
      expect({ expected: status, status: response.status }).toEqual({ expected: status, status });
      const headers = limitHeaders(response);
      for (const name of LIMIT_HEADERS) {
        expect({ status, name, value: headers[name] }).toEqual({
          status,
          name,
          value: expect.stringMatching(/^\d+$/) as unknown,
        });
      }
      expect(headers['x-ratelimit-limit']).toBe('6');
    }
    // The read key has its own window and quota.
    expect(responses[3]![1].headers.get('x-ratelimit-remaining')).toBe('5');
    expect(responses[3]![1].headers.get('x-quota-used')).toBe('1');
    // The write key's 400 and 404 were counted like any other request.
    expect(responses[4]![1].headers.get('x-ratelimit-remaining')).toBe('2');
    expect(responses[4]![1].headers.get('x-quota-used')).toBe('4');
  });

  it('counts and marks requests refused before routing: malformed JSON, 413, 415, unknown route', async () => {
    const tenant = await limited({ rate_per_minute: '50' });
    await freshWindow();
    const auth = { authorization: `Bearer ${tenant.key.key}` };
    const responses: Array<[number, ApiResponse]> = [
      [400, await tenant.request('/assets', { method: 'POST', body: '{bad' })],
      [
        413,
        await tenant.request('/assets', {
          method: 'POST',
          body: `{"name":"${'a'.repeat(1_100_000)}"}`,
        }),
      ],
      [
        415,
        await stack.request('/assets', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'text/plain' },
          body: 'x',
        }),
      ],
      [404, await tenant.get('/nope')],
    ];
    responses.forEach(([status, response], index) => {
      expect(response.status).toBe(status);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(50 - 1 - index));
      expect(response.headers.get('x-quota-used')).toBe(String(index + 1));
    });
    // Without any key, an unknown route is just not found (no limiter involved).
    const anonymous = await stack.request('/nope');
    expect(anonymous.status).toBe(404);
    expect(anonymous.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('counts /ping in the minute window but not in the monthly quota', async () => {
    const tenant = await stack.tenant('pro', 'read', { planRateLimit: true });
    await freshWindow();
    const steps = [];
    for (const path of ['/assets', '/ping', '/ping', '/assets']) {
      const response = await tenant.get(path);
      expect(response.status).toBe(200);
      steps.push([
        path,
        response.headers.get('x-ratelimit-remaining'),
        response.headers.get('x-quota-used'),
      ]);
    }
    expect(steps).toEqual([
      ['/assets', '119', '1'],
      ['/ping', '118', '1'],
      ['/ping', '117', '1'],
      ['/assets', '116', '2'],
    ]);
  });

  it('refuses the request after the monthly quota with Retry-After to the end of the UTC month', async () => {
    const tenant = await limited({ monthly_quota: '3' });
    const used = [];
    for (let i = 0; i < 3; i++) {
      const response = await tenant.get('/assets');
      expect(response.status).toBe(200);
      used.push([response.headers.get('x-quota-used'), response.headers.get('x-quota-remaining')]);
    }
    expect(used).toEqual([
      ['1', '2'],
      ['2', '1'],
      ['3', '0'],
    ]);

    const refused = await tenant.get<ErrorBody>('/assets');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Monthly quota of 3 requests exceeded on the pro plan');
    expect(limitHeaders(refused)).toMatchObject({
      'x-quota-limit': '3',
      'x-quota-used': '3',
      'x-quota-remaining': '0',
    });
    const expected = endOfUtcMonth() - Date.now() / 1000;
    expect(Math.abs(Number(refused.headers.get('retry-after')) - expected)).toBeLessThanOrEqual(2);
    // Writes are refused too; /ping is outside the quota and still answers.
    expect((await tenant.post('/assets', { name: 'Lamp' })).status).toBe(429);
    const ping = await tenant.get('/ping');
    expect(ping.status).toBe(200);
    expect(ping.headers.get('x-quota-used')).toBe('3');
  });

  it("shows 'unlimited' in X-Quota-Limit and X-Quota-Remaining for an unlimited quota", async () => {
    const overridden = await limited({ monthly_quota: 'unlimited' });
    const enterprise = await stack.tenant('enterprise', 'read', { planRateLimit: true });
    for (const tenant of [overridden, enterprise]) {
      await tenant.get('/assets');
      const response = await tenant.get('/assets');
      expect(response.status).toBe(200);
      expect(limitHeaders(response)).toMatchObject({
        'x-quota-limit': 'unlimited',
        'x-quota-used': '2',
        'x-quota-remaining': 'unlimited',
      });
    }
    expect((await enterprise.get('/assets')).headers.get('x-ratelimit-limit')).toBe('3000');
  });

  it('applies a plan change on the very next request: pro → business → free → pro', async () => {
    const tenant = await stack.tenant('pro', 'read', { planRateLimit: true });
    const before = await tenant.get('/assets');
    expect(limitHeaders(before)).toMatchObject({
      'x-ratelimit-limit': '120',
      'x-quota-limit': '100000',
    });

    await stack.adminCall(GatewayAdminPatterns.workspacePlan, {
      workspace: tenant.workspace.id,
      plan: 'business',
    });
    const business = await tenant.get('/assets');
    expect(business.status).toBe(200);
    expect(limitHeaders(business)).toMatchObject({
      'x-ratelimit-limit': '600',
      'x-quota-limit': '1000000',
      // The counts carry over: same key, same window, same month.
      'x-ratelimit-remaining': '598',
      'x-quota-used': '2',
    });

    await stack.adminCall(GatewayAdminPatterns.workspacePlan, {
      workspace: tenant.workspace.id,
      plan: 'free',
    });
    for (const path of ['/assets', '/ping']) {
      const free = await tenant.get<ErrorBody>(path);
      expect(free.status).toBe(403);
      expect(free.body.message).toMatch(/free plan does not include API access/);
      // Decision: the plan gate's 403 carries no limit headers.
      expect(Object.values(limitHeaders(free))).toEqual(LIMIT_HEADERS.map(() => null));
    }

    await stack.adminCall(GatewayAdminPatterns.workspacePlan, {
      workspace: tenant.workspace.id,
      plan: 'pro',
    });
    const resumed = await tenant.get('/assets');
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('x-ratelimit-limit')).toBe('120');
  });

  it('has the register enforce an asset-limit override on the next create', async () => {
    const tenant = await stack.tenant('pro', 'write');
    expect((await tenant.post('/assets', { name: 'One' })).status).toBe(201);
    expect((await tenant.post('/assets', { name: 'Two' })).status).toBe(201);

    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      assets: '2',
    });
    const refused = await tenant.post<ErrorBody>('/assets', { name: 'Three' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Asset limit of 2 reached on the pro plan');
    expect(limitHeaders(refused)['x-quota-used']).toBe('3');
    const list = await tenant.get<AssetDetail[]>('/assets');
    expect(list.body.map((asset) => asset.name).sort()).toEqual(['One', 'Two']);

    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      assets: '3',
    });
    expect((await tenant.post('/assets', { name: 'Three' })).status).toBe(201);
  });
});
