import {
  RegisterAdminPatterns,
  type AssetDetail,
  type CustomFieldView,
  type ErrorBody,
} from '@custodian/contracts';
import { RmqRpcClient } from '@custodian/messaging';
import { TestStack, type Tenant } from './support/stack';

describe('custom fields on assets (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;
  let admin: RmqRpcClient;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    admin = new RmqRpcClient({
      url: stack.env.RABBITMQ_URL!,
      queue: stack.env.REGISTER_ADMIN_QUEUE ?? stack.env.REGISTER_QUEUE!,
      timeoutMs: 5_000,
      connectionName: 'custodian-test-register-admin',
      serviceName: 'register',
    });
    await admin.connect();
    for (const field of [
      { key: 'cost_centre', label: 'Cost centre', type: 'text', required: true },
      { key: 'price', label: 'Price', type: 'number' },
      { key: 'bought_on', label: 'Bought on', type: 'date' },
      { key: 'insured', label: 'Insured', type: 'boolean' },
      { key: 'tier', label: 'Tier', type: 'select', options: 'gold,silver' },
    ]) {
      await admin.request<CustomFieldView>(RegisterAdminPatterns.customFieldCreate, {
        workspace: tenant.workspace.id,
        ...field,
      });
    }
  }, 30_000);

  afterAll(async () => {
    await admin?.close();
    await stack.stop();
  });

  it('stores valid values and returns them on the single fetch', async () => {
    const created = await tenant.post<AssetDetail>('/assets', {
      name: 'Printer',
      custom_fields: { cost_centre: 'CC-9', price: 249.5, bought_on: '2026-02-28', tier: 'gold' },
    });
    expect(created.status).toBe(201);
    const fetched = await tenant.get<AssetDetail>(`/assets/${created.body.id}`);
    expect(fetched.body.custom_fields).toEqual({
      cost_centre: 'CC-9',
      price: 249.5,
      bought_on: '2026-02-28',
      tier: 'gold',
    });
  });

  it.each([
    [{ cost_centre: 'A', price: '12' }, 'custom_fields.price must be a number'],
    [
      { cost_centre: 'A', bought_on: '2026-02-30' },
      'custom_fields.bought_on must be a date as YYYY-MM-DD',
    ],
    [{ cost_centre: 'A', insured: 'yes' }, 'custom_fields.insured must be true or false'],
    [{ cost_centre: 'A', tier: 'bronze' }, 'custom_fields.tier must be one of gold, silver'],
    [
      { cost_centre: 'A', colour: 'red' },
      'custom_fields.colour is not a custom field of this workspace',
    ],
    [{ price: 1 }, 'custom_fields.cost_centre is required'],
  ])('refuses %j with 400: %s', async (fields, message) => {
    const response = await tenant.post<ErrorBody>('/assets', { name: 'X', custom_fields: fields });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });

  it('merges on PATCH, null removes an optional value, a required one cannot be removed', async () => {
    const asset = (
      await tenant.post<AssetDetail>('/assets', {
        name: 'Scanner',
        custom_fields: { cost_centre: 'CC-1', price: 10 },
      })
    ).body;
    const merged = await tenant.patch<AssetDetail>(`/assets/${asset.id}`, {
      custom_fields: { insured: true, price: null },
    });
    expect(merged.body.custom_fields).toEqual({ cost_centre: 'CC-1', insured: true });
    const refused = await tenant.patch<ErrorBody>(`/assets/${asset.id}`, {
      custom_fields: { cost_centre: null },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('custom_fields.cost_centre is required');
  });

  it('counts a text value in code points and bounds the whole custom_fields in bytes', async () => {
    const own = await stack.tenant('pro', 'write');
    for (let i = 0; i < 9; i++) {
      await admin.request<CustomFieldView>(RegisterAdminPatterns.customFieldCreate, {
        workspace: own.workspace.id,
        key: `note_${i}`,
        label: `Note ${i}`,
        type: 'text',
      });
    }
    // 2,000 characters of four bytes each: 4,000 UTF-16 units, 8,000 bytes; at the limit.
    const full = '\u{10FFFF}'.repeat(2_000);
    const tooLong = await own.post<ErrorBody>('/assets', {
      name: 'Noted',
      custom_fields: { note_0: 'a\uFE0F'.repeat(1_001) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe(
      'custom_fields.note_0 must be a string of at most 2000 characters',
    );
    const eight = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`note_${i}`, full]));
    const asset = await own.post<AssetDetail>('/assets', { name: 'Noted', custom_fields: eight });
    expect(asset.status).toBe(201);
    // A ninth value would take the stored object past 64 KiB of JSON.
    const refused = await own.patch<ErrorBody>(`/assets/${asset.body.id}`, {
      custom_fields: { note_8: full },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('custom_fields must be at most 65536 bytes as JSON');
    const fetched = await own.get<AssetDetail>(`/assets/${asset.body.id}`);
    expect(fetched.body.custom_fields).toEqual(eight);
    const page = await own.get<{ total: number }>('/assets?page=1');
    expect(page.body.total).toBe(1);
  });

  it('keeps definitions per workspace and refuses a duplicate key', async () => {
    const other = await stack.tenant('pro', 'write');
    const plain = await other.post<AssetDetail>('/assets', { name: 'No fields needed' });
    expect(plain.status).toBe(201);
    await expect(
      admin.request(RegisterAdminPatterns.customFieldCreate, {
        workspace: tenant.workspace.id,
        key: 'price',
        label: 'Again',
        type: 'number',
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });
});
