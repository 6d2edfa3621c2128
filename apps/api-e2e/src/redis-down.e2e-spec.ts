import {
  GatewayAdminPatterns,
  type ErrorBody,
  type PingView,
  type WorkspaceView,
} from '@custodian/contracts';
import type { ApiResponse } from '@custodian/testing';
import { Tenant, TestStack } from './support/stack';

const LIMIT_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-quota-limit',
  'x-quota-used',
  'x-quota-remaining',
];

function limitHeaders(response: ApiResponse): Array<string | null> {
  return LIMIT_HEADERS.map((name) => response.headers.get(name));
}

/**
 * Redis unreachable from the start (nothing listens on port 1): the gateway keeps serving,
 * keys from Postgres and limits not applied, and reports itself degraded (DECISIONS: Limits
 * and counting).
 */
describe('Redis down (e2e)', () => {
  const stack = new TestStack({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
  let tenant: Tenant;

  beforeAll(async () => {
    await stack.start();
    // Without the limits override: creating a workspace and a key never needs Redis.
    tenant = await stack.tenant('pro', 'write', { planRateLimit: true });
  }, 30_000);

  afterAll(() => stack.stop());

  async function timed<T>(send: () => Promise<ApiResponse<T>>) {
    const started = performance.now();
    const response = await send();
    return { response, ms: performance.now() - started };
  }

  it('answers GET /assets and /ping within 200 ms each, without limit headers', async () => {
    for (let i = 0; i < 5; i++) {
      for (const path of ['/assets', '/ping']) {
        const { response, ms } = await timed(() => tenant.get(path));
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
        expect(ms).toBeLessThan(200);
        expect(limitHeaders(response)).toEqual(LIMIT_HEADERS.map(() => null));
      }
    }
    const ping = await tenant.get<PingView>('/ping');
    expect(ping.body.key.id).toBe(tenant.key.id);
  });

  it('does not limit the plan rate while Redis is down (limits fail open)', async () => {
    const limited = await stack.tenant('pro', 'read', { planRateLimit: true });
    // Admin writes to the key cache fail; see the next test for what the product does then.
    await stack
      .adminCall(GatewayAdminPatterns.workspaceLimits, {
        workspace: limited.workspace.id,
        rate_per_minute: '2',
      })
      .catch(() => undefined);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await limited.get('/ping')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  it('reports itself degraded on /health with 200', async () => {
    const base = stack.baseUrl.replace(/\/api\/v1$/, '');
    const response = await fetch(`${base}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'degraded',
      details: {
        postgres: { status: 'up' },
        redis: { status: 'down' },
        rabbitmq: { status: 'up' },
      },
    });
  });

  it('still refuses unknown keys with 401 (guard fails open: no X-RateLimit-*)', async () => {
    const response = await stack.request<ErrorBody>('/assets', {
      headers: { authorization: 'Bearer cus_malformed' },
    });
    expect(response.status).toBe(401);
    expect(limitHeaders(response)).toEqual(LIMIT_HEADERS.map(() => null));
  });

  it('saves plan changes and queues the key-cache rewrite for repair', async () => {
    // Product decision at the time of writing (access-publisher.ts): the change commits and
    // the workspace goes to gateway.cache_repairs, instead of a 503 to the admin.
    const view = await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspacePlan, {
      workspace: tenant.workspace.id,
      plan: 'business',
    });
    expect(view.plan).toBe('business');
    const queued = await stack.query<{ workspace_id: string }>(
      `SELECT workspace_id FROM gateway.cache_repairs WHERE workspace_id = $1`,
      [tenant.workspace.id],
    );
    expect(queued).toHaveLength(1);

    await stack.adminCall(GatewayAdminPatterns.workspacePlan, {
      workspace: tenant.workspace.id,
      plan: 'free',
    });
    const free = await tenant.get<ErrorBody>('/ping');
    expect(free.status).toBe(403);
    await stack.adminCall(GatewayAdminPatterns.workspacePlan, {
      workspace: tenant.workspace.id,
      plan: 'pro',
    });
    expect((await tenant.get('/ping')).status).toBe(200);
  });

  it('revokes a key on the next request (keys come from Postgres)', async () => {
    const key = await stack.createKey(tenant.workspace.id, 'read');
    const victim = new Tenant(stack, tenant.workspace, key);
    expect((await victim.get('/ping')).status).toBe(200);

    const revoked = await stack.adminCall<{ id: string; revoked_at: string }>(
      GatewayAdminPatterns.keyRevoke,
      { id: key.id },
    );
    expect(revoked.id).toBe(key.id);

    const { response, ms } = await timed(() => victim.get<ErrorBody>('/ping'));
    expect(response.status).toBe(401);
    expect(response.body.message).toBe('API key is not valid or has been revoked');
    expect(ms).toBeLessThan(200);
    // The other key of the workspace is untouched.
    expect((await tenant.get('/ping')).status).toBe(200);
  });
});
