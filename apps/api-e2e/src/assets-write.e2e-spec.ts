import {
  GatewayAdminPatterns,
  type AssetDetail,
  type AssetSummary,
  type ErrorBody,
  type Page,
} from '@custodian/contracts';
import { TestStack, type Tenant } from './support/stack';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectTimestamps(asset: AssetDetail): void {
  expect(asset.created_at).toMatch(TIMESTAMP);
  expect(asset.updated_at).toMatch(TIMESTAMP);
}

describe('asset writes (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;

  async function total(who: Tenant = tenant): Promise<number> {
    const response = await who.get<Page<AssetSummary>>('/assets?page=1&pageSize=1');
    expect(response.status).toBe(200);
    return response.body.total;
  }

  async function create(body: Record<string, unknown>, who: Tenant = tenant) {
    const response = await who.post<AssetDetail>('/assets', body);
    expect(response.status).toBe(201);
    expectTimestamps(response.body);
    return response.body;
  }

  async function limitedTenant(assets: string): Promise<Tenant> {
    const limited = await stack.tenant('pro', 'write');
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: limited.workspace.id,
      assets,
    });
    return limited;
  }

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);

  afterAll(() => stack.stop());

  describe('create validation', () => {
    it.each<[string, unknown, RegExp]>([
      ['name missing', { sku: 'X-1' }, /\bname\b/],
      ['name empty', { name: '' }, /^name must be between 1 and 200 characters$/],
      ['name too long', { name: 'n'.repeat(201) }, /^name must be between 1 and 200 characters$/],
      // 200 emoji with a variation selector: 400 code points, 1,400 bytes.
      [
        'name over 200 code points in 200 glyphs',
        { name: '\u{1F600}\uFE0F'.repeat(200) },
        /^name must be between 1 and 200 characters$/,
      ],
      [
        'name one grapheme of 201 code points',
        { name: 'e' + '\u0301'.repeat(200) },
        /^name must be between 1 and 200 characters$/,
      ],
      [
        'sku of stacked variation selectors',
        { name: 'Desk', sku: 'a\uFE0F'.repeat(101) },
        /^sku must be at most 200 characters$/,
      ],
      [
        'asset_tag over 64 code points',
        { name: 'Desk', asset_tag: 'T\uFE0E'.repeat(33) },
        /^asset_tag must be between 1 and 64 characters$/,
      ],
      ['name a number', { name: 5 }, /^name must be a string$/],
      ['name null', { name: null }, /\bname\b/],
      ['name blank', { name: '   ' }, /^name must not be blank$/],
      ['asset_tag blank', { name: 'Desk', asset_tag: '  ' }, /^asset_tag must not be blank$/],
      ['category blank', { name: 'Desk', category: ' ' }, /^category must not be blank$/],
      ['location blank', { name: 'Desk', location: '\t' }, /^location must not be blank$/],
      ['unknown field', { name: 'Desk', colour: 'red' }, /^unknown field colour$/],
      ['sku a number', { name: 'Desk', sku: 12 }, /\bsku\b/],
      ['brand a boolean', { name: 'Desk', brand: true }, /\bbrand\b/],
      ['model an object', { name: 'Desk', model: { a: 1 } }, /\bmodel\b/],
      ['serial_number an array', { name: 'Desk', serial_number: ['a'] }, /\bserial_number\b/],
      ['status unknown', { name: 'Desk', status: 'broken' }, /\bstatus\b/],
      ['status a number', { name: 'Desk', status: 1 }, /\bstatus\b/],
      ['asset_tag a number', { name: 'Desk', asset_tag: 7 }, /\basset_tag\b/],
      ['category a number', { name: 'Desk', category: 7 }, /\bcategory\b/],
      ['location a boolean', { name: 'Desk', location: false }, /\blocation\b/],
      ['body an array', [{ name: 'Desk' }], /\bbody\b/],
      ['body a string', '"Desk"', /\bbody\b/],
      ['body null', 'null', /\bbody\b/],
      ['body a number', '42', /\bbody\b/],
    ])('refuses %s with 400 naming it, and writes nothing', async (_, body, message) => {
      const before = await total();
      const response = await tenant.post<ErrorBody>('/assets', body);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body).sort()).toEqual(['error', 'message', 'statusCode']);
      expect(response.body.statusCode).toBe(400);
      expect(response.body.error).toBe('Bad Request');
      expect(response.body.message).toMatch(message);
      expect(await total()).toBe(before);
    });

    it('accepts a name of exactly 200 characters', async () => {
      const name = 'n'.repeat(200);
      const asset = await create({ name });
      expect(asset.name).toBe(name);
    });

    it('accepts 200 four-byte characters: 800 bytes, the most a 200-character field holds', async () => {
      const name = '\u{10FFFF}'.repeat(200);
      const asset = await create({ name });
      expect(asset.name).toBe(name);
      expect(Buffer.byteLength(asset.name)).toBe(800);
    });

    it('refuses an over-long value on PATCH too, naming it, and leaves the asset as it was', async () => {
      const asset = await create({ name: 'Patched', brand: 'Acme' });
      const response = await tenant.patch<ErrorBody>(`/assets/${asset.id}`, {
        brand: '\u{1F600}\uFE0F'.repeat(101),
        model: 'M-1',
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('brand must be at most 200 characters');
      expect((await tenant.get<AssetDetail>(`/assets/${asset.id}`)).body).toEqual(asset);
    });
  });

  describe('asset tags', () => {
    it('generates sequential tags per workspace and accepts a client tag', async () => {
      const own = await stack.tenant('pro', 'write');
      const first = await create({ name: 'One' }, own);
      const second = await create({ name: 'Two' }, own);
      const third = await create({ name: 'Three' }, own);
      expect([first.asset_tag, second.asset_tag, third.asset_tag]).toEqual([
        'AT-000001',
        'AT-000002',
        'AT-000003',
      ]);
      const tagged = await create({ name: 'Client tagged', asset_tag: 'LAPTOP-0042' }, own);
      expect(tagged.asset_tag).toBe('LAPTOP-0042');
      const fourth = await create({ name: 'Four' }, own);
      expect(fourth.asset_tag).toBe('AT-000004');

      // Another workspace has its own sequence.
      const other = await stack.tenant('pro', 'write');
      expect((await create({ name: 'Elsewhere' }, other)).asset_tag).toBe('AT-000001');
      // And may reuse a tag used in the first workspace.
      expect((await create({ name: 'Same tag', asset_tag: 'LAPTOP-0042' }, other)).asset_tag).toBe(
        'LAPTOP-0042',
      );
    });

    it('refuses a duplicate tag with 409 on create, writing nothing', async () => {
      const original = await create({ name: 'Tag owner', asset_tag: 'DUP-1' });
      const before = await total();
      const response = await tenant.post<ErrorBody>('/assets', {
        name: 'Tag thief',
        asset_tag: 'DUP-1',
      });
      expect(response.status).toBe(409);
      expect(response.body.statusCode).toBe(409);
      expect(response.body.error).toBe('Conflict');
      expect(response.body.message).toMatch(/\basset_tag\b/);
      expect(response.body.message).toContain('DUP-1');
      expect(await total()).toBe(before);

      // A generated tag is just as taken.
      const generated = await create({ name: 'Generated' });
      const clash = await tenant.post<ErrorBody>('/assets', {
        name: 'Clash',
        asset_tag: generated.asset_tag,
      });
      expect(clash.status).toBe(409);
      expect((await tenant.get<AssetDetail>(`/assets/${original.id}`)).body).toEqual(original);
    });

    it('refuses a duplicate tag with 409 on PATCH, changing nothing', async () => {
      const holder = await create({ name: 'Holder', asset_tag: 'DUP-2' });
      const mover = await create({ name: 'Mover', asset_tag: 'DUP-3' });
      const response = await tenant.patch<ErrorBody>(`/assets/${mover.id}`, {
        name: 'Mover renamed',
        asset_tag: 'DUP-2',
      });
      expect(response.status).toBe(409);
      expect(response.body.error).toBe('Conflict');
      expect(response.body.message).toContain('DUP-2');
      expect((await tenant.get<AssetDetail>(`/assets/${mover.id}`)).body).toEqual(mover);
      expect((await tenant.get<AssetDetail>(`/assets/${holder.id}`)).body).toEqual(holder);

      // Keeping its own tag is not a conflict.
      const same = await tenant.patch<AssetDetail>(`/assets/${mover.id}`, { asset_tag: 'DUP-3' });
      expect(same.status).toBe(200);
      expect(same.body.asset_tag).toBe('DUP-3');
    });
  });

  describe('categories and locations', () => {
    it('creates them by name and reuses them case-insensitively', async () => {
      const first = await create({
        name: 'Laptop A',
        category: 'Laptops',
        location: 'Head Office',
      });
      const second = await create({
        name: 'Laptop B',
        category: 'LAPTOPS',
        location: 'head office',
      });
      expect(Object.keys(first.category ?? {}).sort()).toEqual(['id', 'name']);
      expect(first.category?.id).toMatch(/^cat_/);
      expect(first.category?.name).toBe('Laptops');
      expect(Object.keys(first.location ?? {}).sort()).toEqual(['id', 'name']);
      expect(first.location?.id).toMatch(/^loc_/);
      expect(first.location?.name).toBe('Head Office');
      expect(second.category).toEqual(first.category);
      expect(second.location).toEqual(first.location);

      const third = await create({ name: 'Phone', category: 'Phones', location: 'Warehouse' });
      expect(third.category!.id).not.toBe(first.category!.id);
      expect(third.location!.id).not.toBe(first.location!.id);

      const patched = await tenant.patch<AssetDetail>(`/assets/${third.id}`, {
        category: 'laptops',
        location: 'HEAD OFFICE',
      });
      expect(patched.status).toBe(200);
      expect(patched.body.category).toEqual(first.category);
      expect(patched.body.location).toEqual(first.location);
    });

    it('keeps categories of different workspaces apart', async () => {
      const other = await stack.tenant('pro', 'write');
      const mine = await create({ name: 'Mine', category: 'Shared name' });
      const theirs = await create({ name: 'Theirs', category: 'Shared name' }, other);
      expect(theirs.category!.name).toBe('Shared name');
      expect(theirs.category!.id).not.toBe(mine.category!.id);
    });
  });

  describe('PATCH', () => {
    const full = {
      name: 'Dell XPS 13',
      sku: 'SKU-XPS',
      status: 'maintenance',
      brand: 'Dell',
      model: 'XPS 13 9340',
      serial_number: 'SN-XPS-1',
      category: 'Laptops',
      location: 'Branch',
    };

    it('keeps omitted fields', async () => {
      const asset = await create(full);
      const response = await tenant.patch<AssetDetail>(`/assets/${asset.id}`, {
        name: 'Dell XPS 13 (2024)',
      });
      expect(response.status).toBe(200);
      expectTimestamps(response.body);
      expect(response.body).toEqual({
        ...asset,
        name: 'Dell XPS 13 (2024)',
        updated_at: response.body.updated_at,
      });
      expect((await tenant.get<AssetDetail>(`/assets/${asset.id}`)).body).toEqual(response.body);
    });

    it('clears sku, brand, model, serial_number, category and location with null', async () => {
      const asset = await create(full);
      const response = await tenant.patch<AssetDetail>(`/assets/${asset.id}`, {
        sku: null,
        brand: null,
        model: null,
        serial_number: null,
        category: null,
        location: null,
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        ...asset,
        sku: null,
        brand: null,
        model: null,
        serial_number: null,
        category: null,
        location: null,
        updated_at: response.body.updated_at,
      });
      const fetched = await tenant.get<AssetDetail>(`/assets/${asset.id}`);
      expect(fetched.body).toEqual(response.body);
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      ['name null', { name: null }, /\bname\b/],
      ['status null', { status: null }, /\bstatus\b/],
      ['name empty', { name: '' }, /\bname\b/],
      ['name blank', { name: '  ' }, /^name must not be blank$/],
      ['asset_tag null', { asset_tag: null }, /\basset_tag\b/],
      ['asset_tag blank', { asset_tag: '  ' }, /^asset_tag must not be blank$/],
      ['category blank', { category: '  ' }, /^category must not be blank$/],
      ['status unknown', { status: 'broken' }, /\bstatus\b/],
      ['unknown field', { colour: 'red' }, /^unknown field colour$/],
      ['sku a number', { sku: 1 }, /\bsku\b/],
    ])('refuses %s with 400 naming it, changing nothing', async (_, body, message) => {
      const asset = await create(full);
      const response = await tenant.patch<ErrorBody>(`/assets/${asset.id}`, {
        brand: 'Changed',
        ...body,
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('Bad Request');
      expect(response.body.message).toMatch(message);
      expect((await tenant.get<AssetDetail>(`/assets/${asset.id}`)).body).toEqual(asset);
    });

    it.each([
      ['an array', '[]'],
      ['null', 'null'],
      ['a string', '"x"'],
    ])('refuses a body that is %s', async (_, body) => {
      const asset = await create({ name: 'Body probe' });
      const response = await tenant.patch<ErrorBody>(`/assets/${asset.id}`, body);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/\bbody\b/);
    });

    it('returns the asset unchanged, same updated_at, for an empty PATCH', async () => {
      const asset = await create(full);
      await sleep(5);
      const response = await tenant.patch<AssetDetail>(`/assets/${asset.id}`, {});
      expect(response.status).toBe(200);
      expect(response.body).toEqual(asset);
      expect((await tenant.get<AssetDetail>(`/assets/${asset.id}`)).body.updated_at).toBe(
        asset.updated_at,
      );
    });

    it('moves updated_at on a real change, and keeps created_at', async () => {
      const asset = await create(full);
      await sleep(5);
      const response = await tenant.patch<AssetDetail>(`/assets/${asset.id}`, {
        status: 'retired',
      });
      expect(response.status).toBe(200);
      expect(response.body.status).toBe('retired');
      expect(response.body.created_at).toBe(asset.created_at);
      expect(response.body.updated_at).not.toBe(asset.updated_at);
      expect(Date.parse(response.body.updated_at)).toBeGreaterThan(Date.parse(asset.updated_at));
      const summary = (await tenant.get<AssetSummary[]>('/assets')).body.find(
        (item) => item.id === asset.id,
      );
      expect(summary!.updated_at).toBe(response.body.updated_at);
    });

    it('answers 404 for an unknown id', async () => {
      const response = await tenant.patch<ErrorBody>('/assets/ast_doesnotexist', { name: 'x' });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'Asset ast_doesnotexist not found',
      });
    });
  });

  describe('plan asset limit', () => {
    it('refuses the create past the limit with 403 naming limit and plan, writing nothing', async () => {
      const limited = await limitedTenant('3');
      for (let i = 1; i <= 3; i++) await create({ name: `Allowed ${i}` }, limited);

      const refused = await limited.post<ErrorBody>('/assets', { name: 'One too many' });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: 'Asset limit of 3 reached on the pro plan',
      });
      expect(await total(limited)).toBe(3);
      const again = await limited.post<ErrorBody>('/assets', {
        name: 'Still too many',
        asset_tag: 'X-1',
      });
      expect(again.status).toBe(403);
      expect(await total(limited)).toBe(3);

      // Raising the limit bites on the very next request.
      await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
        workspace: limited.workspace.id,
        assets: '4',
      });
      const fourth = await create({ name: 'Allowed 4' }, limited);
      expect(fourth.asset_tag).toBe('AT-000004');
      expect(await total(limited)).toBe(4);
      const fifth = await limited.post<ErrorBody>('/assets', { name: 'Allowed 5?' });
      expect(fifth.status).toBe(403);
      expect(fifth.body.message).toBe('Asset limit of 4 reached on the pro plan');

      // Lowering below the count refuses creates but leaves existing assets editable.
      await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
        workspace: limited.workspace.id,
        assets: '2',
      });
      expect((await limited.post('/assets', { name: 'Nope' })).status).toBe(403);
      const patched = await limited.patch<AssetDetail>(`/assets/${fourth.id}`, { name: 'Edited' });
      expect(patched.status).toBe(200);

      // Back to the plan's limit (5000 on pro) and unlimited both admit the create.
      await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
        workspace: limited.workspace.id,
        assets: 'plan',
      });
      await create({ name: 'Plan limit again' }, limited);
      await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
        workspace: limited.workspace.id,
        assets: 'unlimited',
      });
      await create({ name: 'Unlimited' }, limited);
      expect(await total(limited)).toBe(6);
    });

    it('admits exactly the limit out of concurrent creates', async () => {
      const limited = await limitedTenant('5');
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          limited.post<AssetDetail | ErrorBody>('/assets', { name: `Concurrent ${i}` }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 201, 201, 201, 201, 403, 403, 403, 403, 403]);
      for (const response of responses.filter((r) => r.status === 403)) {
        expect((response.body as ErrorBody).message).toBe(
          'Asset limit of 5 reached on the pro plan',
        );
      }
      expect(await total(limited)).toBe(5);
      const tags = responses
        .filter((response) => response.status === 201)
        .map((response) => (response.body as AssetDetail).asset_tag)
        .sort();
      expect(tags).toEqual(['AT-000001', 'AT-000002', 'AT-000003', 'AT-000004', 'AT-000005']);
    });
  });

  describe('tenancy', () => {
    it("answers 404 to another workspace's id exactly as to an id that never existed", async () => {
      const owner = await stack.tenant('pro', 'write');
      const intruder = await stack.tenant('pro', 'write');
      const asset = await create({ name: 'Secret laptop', serial_number: 'SN-SECRET' }, owner);
      // Same length and prefix as the real id, never issued.
      const missing = asset.id.slice(0, -6) + (asset.id.endsWith('zzzzzz') ? 'yyyyyy' : 'zzzzzz');
      expect(missing).toHaveLength(asset.id.length);
      expect(missing).not.toBe(asset.id);

      const template = (id: string) => ({
        statusCode: 404,
        error: 'Not Found',
        message: `Asset ${id} not found`,
      });
      const foreignGet = await intruder.get<ErrorBody>(`/assets/${asset.id}`);
      const missingGet = await intruder.get<ErrorBody>(`/assets/${missing}`);
      const foreignPatch = await intruder.patch<ErrorBody>(`/assets/${asset.id}`, {
        name: 'Stolen',
        serial_number: null,
      });
      const missingPatch = await intruder.patch<ErrorBody>(`/assets/${missing}`, {
        name: 'Stolen',
        serial_number: null,
      });
      for (const [response, id] of [
        [foreignGet, asset.id],
        [missingGet, missing],
        [foreignPatch, asset.id],
        [missingPatch, missing],
      ] as const) {
        expect(response.status).toBe(404);
        expect(response.body).toEqual(template(id));
        expect(response.text).toBe(JSON.stringify(template(id)));
        expect(response.text).not.toContain('Secret');
        expect(response.text).not.toContain('SN-SECRET');
        expect(response.headers.get('content-type')).toBe(missingGet.headers.get('content-type'));
      }
      // The two answers differ only by the id.
      expect(foreignGet.text.replace(asset.id, missing)).toBe(missingGet.text);
      expect(foreignPatch.text.replace(asset.id, missing)).toBe(missingPatch.text);

      // The owner's asset is untouched and invisible to the intruder's list.
      expect((await owner.get<AssetDetail>(`/assets/${asset.id}`)).body).toEqual(asset);
      const intruderList = await intruder.get<AssetSummary[]>('/assets?search=secret');
      expect(intruderList.body).toEqual([]);
      // The owner gets the same 404 for the never-issued id.
      expect((await owner.get<ErrorBody>(`/assets/${missing}`)).text).toBe(missingGet.text);
    });
  });

  it('writes every timestamp as ISO 8601 UTC with milliseconds', async () => {
    const asset = await create({ name: 'Clock', category: 'Time', location: 'Wall' });
    expectTimestamps(asset);
    const patched = await tenant.patch<AssetDetail>(`/assets/${asset.id}`, { sku: 'CLK' });
    expectTimestamps(patched.body);
    expectTimestamps((await tenant.get<AssetDetail>(`/assets/${asset.id}`)).body);
    const page = await tenant.get<Page<AssetSummary>>('/assets?page=1&pageSize=200');
    expect(page.body.data.length).toBeGreaterThan(0);
    for (const item of page.body.data) expect(item.updated_at).toMatch(TIMESTAMP);
  });
});
