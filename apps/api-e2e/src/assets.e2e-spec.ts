import type { AssetDetail, AssetSummary, ErrorBody, Page } from '@custodian/contracts';
import { TestStack, type Tenant } from './support/stack';

describe('assets API (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);

  afterAll(() => stack.stop());

  it('creates an asset with a generated tag and returns the single-fetch shape', async () => {
    const created = await tenant.post<AssetDetail>('/assets', {
      name: 'MacBook Pro 14',
      serial_number: 'C02XYZ',
      category: 'Laptops',
      location: 'HQ',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'MacBook Pro 14',
      status: 'active',
      serial_number: 'C02XYZ',
      asset_tag: 'AT-000001',
      category: { name: 'Laptops' },
      location: { name: 'HQ' },
      assigned_to: null,
      custody: null,
      custom_fields: {},
    });
    expect(created.body.id).toMatch(/^ast_/);
    expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const fetched = await tenant.get<AssetDetail>(`/assets/${created.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);
  });

  it('names the failing field and writes nothing on bad input', async () => {
    const before = await tenant.get<Page<AssetSummary>>('/assets?page=1');
    const response = await tenant.post<ErrorBody>('/assets', { name: 5, colour: 'red' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'unknown field colour; name must be a string',
    });
    const after = await tenant.get<Page<AssetSummary>>('/assets?page=1');
    expect(after.body.total).toBe(before.body.total);
  });
});
