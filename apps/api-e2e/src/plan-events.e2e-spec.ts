import { GatewayAdminPatterns, type ErrorBody } from '@custodian/contracts';
import { eventDataErrors, eventually } from '@custodian/testing';
import { Client } from 'pg';
import { TestStack } from './support/stack';

interface OutboxRow {
  event: string;
  workspace_id: string;
  data: Record<string, unknown>;
}

/**
 * The events of plans and limits, as written to the outboxes in the same transaction as the
 * change (DECISIONS: Plans): `plan.changed` by the gateway, `plan.limit_reached` by the
 * register once per crossing.
 */
describe('plan events in the outboxes (e2e)', () => {
  const stack = new TestStack();
  let db: Client;

  beforeAll(async () => {
    await stack.start();
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  }, 30_000);

  afterAll(async () => {
    await db?.end();
    await stack.stop();
  });

  async function outbox(schema: 'gateway' | 'register', workspace: string, event: string) {
    const result = await db.query<OutboxRow>(
      `SELECT event, workspace_id, data FROM ${schema}.outbox
       WHERE workspace_id = $1 AND event = $2 ORDER BY created_at, id`,
      [workspace, event],
    );
    return result.rows;
  }

  it('writes plan.changed with the previous and the current plan', async () => {
    const tenant = await stack.tenant('pro', 'read', { planRateLimit: true });
    expect(await outbox('gateway', tenant.workspace.id, 'plan.changed')).toEqual([]);

    await stack.adminCall(GatewayAdminPatterns.workspacePlan, {
      workspace: tenant.workspace.id,
      plan: 'business',
    });

    const rows = await outbox('gateway', tenant.workspace.id, 'plan.changed');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data).toEqual({
      workspace: { id: tenant.workspace.id, name: 'Acme' },
      previous: {
        plan: 'pro',
        limits: expect.objectContaining({ ratePerMinute: 120, monthlyQuota: 100_000 }) as unknown,
      },
      current: {
        plan: 'business',
        limits: expect.objectContaining({ ratePerMinute: 600, monthlyQuota: 1_000_000 }) as unknown,
      },
    });

    // A limits override is a change too: previous and current carry the effective limits.
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      monthly_quota: '5',
    });
    const after = await outbox('gateway', tenant.workspace.id, 'plan.changed');
    expect(after).toHaveLength(2);
    expect(after[1]!.data).toMatchObject({
      previous: { plan: 'business', limits: { monthlyQuota: 1_000_000 } },
      current: { plan: 'business', limits: { monthlyQuota: 5 } },
    });
    for (const row of after) {
      expect(eventDataErrors('plan.changed', row.data)).toEqual([]);
    }
  });

  /** A reader's copy of a workspace's plan facts (ADR 0019): [plan, api_access, seats]. */
  async function copyOf(schema: 'register' | 'delivery', workspace: string) {
    const result = await db.query<{ plan: string; api_access: boolean; seats: number | null }>(
      `SELECT plan, api_access, (limits->>'seats')::int AS seats FROM ${schema}.workspace_plans
       WHERE workspace_id = $1`,
      [workspace],
    );
    const row = result.rows[0];
    return row ? [row.plan, row.api_access, row.seats] : null;
  }

  it("states a workspace's plan facts at creation and each change; the register's and the worker's copies follow", async () => {
    const tenant = await stack.tenant('pro', 'read', { planRateLimit: true });
    const id = tenant.workspace.id;
    const facts = await outbox('gateway', id, 'internal.workspace.plan');
    expect(facts.map((row) => row.data)).toEqual([
      expect.objectContaining({ workspace_id: id, plan: 'pro', api_access: true }),
    ]);
    await eventually(async () => {
      expect(await copyOf('register', id)).toEqual(['pro', true, 25]);
      expect(await copyOf('delivery', id)).toEqual(['pro', true, 25]);
    });

    await stack.adminCall(GatewayAdminPatterns.workspacePlan, { workspace: id, plan: 'free' });
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, { workspace: id, seats: '9' });
    await eventually(async () => {
      expect(await copyOf('register', id)).toEqual(['free', false, 9]);
      expect(await copyOf('delivery', id)).toEqual(['free', false, 9]);
    });
    // Facts are no webhook event: none of them is in the deliveries.
    const delivered = await db.query(
      `SELECT 1 FROM delivery.deliveries WHERE event LIKE 'internal.%'`,
    );
    expect(delivered.rows).toEqual([]);
  });

  it('writes plan.limit_reached once, on the create that fills an asset limit of 2', async () => {
    const tenant = await stack.tenant('pro', 'write');
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      assets: '2',
    });

    expect((await tenant.post('/assets', { name: 'One' })).status).toBe(201);
    expect(await outbox('register', tenant.workspace.id, 'plan.limit_reached')).toEqual([]);

    expect((await tenant.post('/assets', { name: 'Two' })).status).toBe(201);
    const refused = await tenant.post<ErrorBody>('/assets', { name: 'Three' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Asset limit of 2 reached on the pro plan');

    const rows = await outbox('register', tenant.workspace.id, 'plan.limit_reached');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data).toMatchObject({
      workspace: { id: tenant.workspace.id },
      plan: 'pro',
      limit: 'assets',
      value: 2,
    });
    expect(eventDataErrors('plan.limit_reached', rows[0]!.data)).toEqual([]);
    // The refused create wrote nothing: no asset.created for it either.
    const created = await outbox('register', tenant.workspace.id, 'asset.created');
    expect(created).toHaveLength(2);
  });

  it('writes plan.limit_reached once, on the request that uses the last unit of the quota', async () => {
    const tenant = await stack.tenant('pro', 'read');
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      monthly_quota: '2',
    });
    expect((await tenant.get('/assets')).status).toBe(200);
    expect((await tenant.get('/ping')).status).toBe(200);
    // Written after the response is decided; give it a moment before saying it is absent.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await outbox('gateway', tenant.workspace.id, 'plan.limit_reached')).toEqual([]);

    expect((await tenant.get('/assets')).status).toBe(200);
    expect((await tenant.get('/assets')).status).toBe(429);
    const rows = await eventually(async () => {
      const found = await outbox('gateway', tenant.workspace.id, 'plan.limit_reached');
      expect(found).toHaveLength(1);
      return found;
    });
    expect(rows[0]!.data).toMatchObject({
      workspace: { id: tenant.workspace.id, name: 'Acme' },
      plan: 'pro',
      limit: 'monthly_quota',
      value: 2,
      key: { id: tenant.key.id },
    });
    expect(eventDataErrors('plan.limit_reached', rows[0]!.data)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await outbox('gateway', tenant.workspace.id, 'plan.limit_reached')).toHaveLength(1);
  });
});
