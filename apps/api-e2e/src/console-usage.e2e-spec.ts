import {
  GatewayAdminPatterns,
  type AssetDetail,
  type ErrorBody,
  type PlanUsage,
  type RevokedKeyView,
  type UsageMeter,
  type WorkspaceView,
} from '@custodian/contracts';
import type { ApiResponse } from '@custodian/testing';
import { ConsoleClient } from './support/console-client';
import { consoleMember, consoleOwner } from './support/console-sign-in';
import { Tenant, TestStack } from './support/stack';

/**
 * Issue 14, Plan and usage: `GET /console/api/usage` gives the plan's limits with what is
 * used of each, read where each is counted (the register's counters, the access gate's
 * windows), and the limits reached or near, for every role.
 */
describe('console plan and usage (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;
  let owner: ConsoleClient;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    owner = await consoleOwner(stack, tenant.workspace.id, 'owner@usage.example');
  }, 30_000);
  afterAll(() => stack.stop());

  async function usage(client: ConsoleClient): Promise<PlanUsage> {
    const answer = await client.get<PlanUsage>('/console/api/usage');
    expect(answer.status).toBe(200);
    return answer.body;
  }

  const meter = (report: PlanUsage, name: UsageMeter['name']) =>
    report.meters.find((each) => each.name === name);

  /**
   * Waits, if needed, until at least `seconds` remain in the current minute, so requests and
   * the read that counts them fall in one fixed window (windows.ts).
   */
  async function freshWindow(seconds = 10): Promise<void> {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < seconds * 1_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  }

  const header = (response: ApiResponse, name: string) => Number(response.headers.get(name));

  it('counts what the API creates and what each key asks, as the limits count it', async () => {
    const before = await usage(owner);
    expect(before).toMatchObject({ plan: 'pro', api_access: true, keys_shown: true, notices: [] });
    expect(before.meters).toEqual([
      { name: 'assets', limit: 5000, used: 0, per_key: false, state: 'ok' },
      { name: 'people', limit: 1000, used: 0, per_key: false, state: 'ok' },
      // The owner holds a seat.
      { name: 'seats', limit: 25, used: 1, per_key: false, state: 'ok' },
      { name: 'monthly_quota', limit: 100_000, used: 0, per_key: true, state: 'ok' },
      // stack.tenant lifts the per-minute limit for its suites.
      { name: 'rate_per_minute', limit: 1_000_000, used: 0, per_key: true, state: 'ok' },
    ]);
    expect(before.keys).toEqual([
      {
        id: tenant.key.id,
        name: null,
        prefix: tenant.key.prefix,
        revoked: false,
        month_requests: 0,
        minute_requests: 0,
      },
    ]);

    await freshWindow();
    for (const name of ['Laptop', 'Monitor']) {
      expect((await tenant.post<AssetDetail>('/assets', { name })).status).toBe(201);
    }
    const person = await tenant.post('/people', { full_name: 'Ada', email: 'ada@usage.example' });
    expect(person.status).toBe(201);
    // /ping counts in the minute window only, not in the month.
    expect((await tenant.get('/ping')).status).toBe(200);
    const last = await tenant.get('/assets?page=1');
    expect(last.status).toBe(200);

    // A second key with one request, then revoked: its count stays in the month's total.
    const other = await stack.createKey(tenant.workspace.id, 'read');
    const otherTenant = new Tenant(stack, tenant.workspace, other);
    expect((await otherTenant.get('/people?page=1')).status).toBe(200);
    await stack.adminCall<RevokedKeyView>(GatewayAdminPatterns.keyRevoke, { id: other.id });

    const after = await usage(owner);
    // What the gateway answered the key's last request: its month and its window so far.
    const monthUsed = header(last, 'x-quota-used');
    const windowUsed = header(last, 'x-ratelimit-limit') - header(last, 'x-ratelimit-remaining');
    expect([monthUsed, windowUsed]).toEqual([4, 5]);
    expect(after.keys).toEqual([
      {
        id: tenant.key.id,
        name: null,
        prefix: tenant.key.prefix,
        revoked: false,
        month_requests: monthUsed,
        minute_requests: windowUsed,
      },
      {
        id: other.id,
        name: null,
        prefix: other.prefix,
        revoked: true,
        month_requests: 1,
        minute_requests: 1,
      },
    ]);
    expect(meter(after, 'assets')).toMatchObject({ used: 2, limit: 5000 });
    expect(meter(after, 'people')).toMatchObject({ used: 1, limit: 1000 });
    // The per-key limits meet the busiest key still in use.
    expect(meter(after, 'monthly_quota')).toMatchObject({ used: 4 });
    expect(meter(after, 'rate_per_minute')).toMatchObject({ used: 5 });
    expect(after.month).toMatchObject({ quota_per_key: 100_000, used: 5 });
    expect(after.month.month).toBe(new Date().toISOString().slice(0, 7));
    expect(after.minute_window).toMatchObject({ limit_per_key: 1_000_000, used: 6 });
    // The same window the gateway reported: X-RateLimit-Reset is its end, in Unix seconds.
    expect(after.minute_window.resets_at).toBe(
      new Date(header(last, 'x-ratelimit-reset') * 1000).toISOString(),
    );
    expect(after.minute_window.resets_in_seconds).toBeGreaterThanOrEqual(1);
    expect(after.minute_window.resets_in_seconds).toBeLessThanOrEqual(60);
  }, 30_000);

  it('is there for a member too, with the totals but without the keys', async () => {
    const member = await consoleMember(tenant, 'member', 'member@usage.example');
    const seen = await usage(member);
    const byOwner = await usage(owner);
    expect(seen.keys_shown).toBe(false);
    expect(seen.keys).toEqual([]);
    expect(byOwner.keys.length).toBeGreaterThan(0);
    // The accepted invitation took a seat; the invitation itself was an API request.
    expect(meter(seen, 'seats')).toMatchObject({ used: 2, limit: 25 });
    expect(seen.month.used).toBe(byOwner.month.used);
    expect(seen.month.used).toBe(6);
    expect(seen.meters.slice(0, 4)).toEqual(byOwner.meters.slice(0, 4));
  }, 30_000);

  it('answers 401 with the error body without a session, API key or not', async () => {
    const origin = new URL(stack.baseUrl).origin;
    const anonymous = await new ConsoleClient(origin).get<ErrorBody>('/console/api/usage');
    const keyed = await new ConsoleClient(origin).request<ErrorBody>(
      'GET',
      '/console/api/usage',
      undefined,
      { authorization: `Bearer ${tenant.key.key}` },
    );
    for (const refused of [anonymous, keyed]) {
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'You are not signed in (or your session ended); sign in again',
      });
    }
  });

  it('shows a small plan near its asset limit, then at it, as a create is refused there', async () => {
    const created = await stack.createWorkspace('free', 'Tiny');
    await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceLimits, {
      workspace: created.id,
      assets: '5',
    });
    const tiny = await consoleOwner(stack, created.id, 'owner@tiny.example');
    const add = (name: string) =>
      tiny.post<AssetDetail | ErrorBody>('/console/api/assets', { name });
    for (let n = 1; n <= 4; n++) expect((await add(`Chair ${n}`)).status).toBe(201);

    const near = await usage(tiny);
    expect(near).toMatchObject({ plan: 'free', api_access: false });
    expect(meter(near, 'assets')).toEqual({
      name: 'assets',
      limit: 5,
      used: 4,
      per_key: false,
      state: 'near',
    });
    // The free plan has no request limits (and no API access to count).
    expect(meter(near, 'monthly_quota')).toMatchObject({ limit: null, state: 'ok' });
    expect(near.notices).toEqual([
      {
        limit: 'assets',
        level: 'near',
        message: 'Asset limit of 5 nearly reached on the free plan: 4 used',
        key: null,
      },
    ]);

    expect((await add('Chair 5')).status).toBe(201);
    const reached = await usage(tiny);
    expect(meter(reached, 'assets')).toMatchObject({ used: 5, state: 'reached' });
    expect(reached.notices).toEqual([
      {
        limit: 'assets',
        level: 'reached',
        message: 'Asset limit of 5 reached on the free plan',
        key: null,
      },
    ]);
    const refused = await add('Chair 6');
    expect([refused.status, (refused.body as ErrorBody).message]).toEqual([
      403,
      reached.notices[0]?.message,
    ]);
    const events = await stack.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM register.outbox WHERE workspace_id = $1 AND event = 'plan.limit_reached'`,
      [created.id],
    );
    expect(events.map((row) => row.data)).toEqual([
      { workspace: { id: created.id }, plan: 'free', limit: 'assets', value: 5 },
    ]);
  }, 30_000);
});
