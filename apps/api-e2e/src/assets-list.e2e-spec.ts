import {
  GatewayAdminPatterns,
  type AssetDetail,
  type AssetSummary,
  type ErrorBody,
  type Page,
  UNPAGED_MAX_BYTES,
} from '@custodian/contracts';
import { TestStack, type Tenant } from './support/stack';

const STATUSES = ['active', 'maintenance', 'retired', 'lost', 'stolen', 'inactive'] as const;
const SUMMARY_KEYS = [
  'assigned_to',
  'brand',
  'category',
  'id',
  'model',
  'name',
  'serial_number',
  'sku',
  'status',
  'updated_at',
];
const LIMIT_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-quota-limit',
  'x-quota-used',
  'x-quota-remaining',
];
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** Assets beyond the default page size, so the default of 50 is observable. */
const FILLER_COUNT = 48;

describe('assets list (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;
  /** Every asset of the workspace, in creation order. */
  const created: AssetDetail[] = [];
  const special: Record<string, AssetDetail> = {};

  async function create(body: Record<string, unknown>): Promise<AssetDetail> {
    const response = await tenant.post<AssetDetail>('/assets', body);
    expect(response.status).toBe(201);
    created.push(response.body);
    return response.body;
  }

  async function list(query: string): Promise<AssetSummary[]> {
    const response = await tenant.get<AssetSummary[]>(`/assets${query}`);
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    return response.body;
  }

  function search(term: string): Promise<AssetSummary[]> {
    return list(`?search=${encodeURIComponent(term)}`);
  }

  async function badRequest(query: string): Promise<string> {
    const response = await tenant.get<ErrorBody>(`/assets${query}`);
    expect(response.status).toBe(400);
    expect(Object.keys(response.body).sort()).toEqual(['error', 'message', 'statusCode']);
    expect(response.body.statusCode).toBe(400);
    expect(response.body.error).toBe('Bad Request');
    return response.body.message;
  }

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    // Keep any per-minute limit out of the way of the seeding.
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      rate_per_minute: '100000',
    });
    for (const status of STATUSES) {
      special[status] = await create({ name: `Status probe ${status}`, status });
    }
    special.name = await create({ name: 'Zebra Quokkaphone Deluxe' });
    special.tag = await create({ name: 'Tagged', asset_tag: 'HQ-TagZulu-77' });
    special.serial = await create({ name: 'Serial holder', serial_number: 'SN-XyloQuartz-991' });
    special.brand = await create({ name: 'Brand holder', brand: 'Wombatronix' });
    special.model = await create({ name: 'Model holder', model: 'Kestrel-MK9' });
    special.sku = await create({ name: 'Sku holder', sku: 'SKU-PelicanBay-42' });
    special.percent = await create({ name: 'Discount 50% tablet' });
    special.underscore = await create({ name: 'Spare', model: 'dock_station' });
    for (let i = 1; i <= FILLER_COUNT; i++) {
      await create({ name: `Filler ${String(i).padStart(2, '0')}`, brand: 'Generic' });
    }
  }, 30_000);

  afterAll(() => stack.stop());

  it('returns the paged envelope with the exact total', async () => {
    const response = await tenant.get<Page<AssetSummary>>('/assets?page=1&pageSize=10');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['data', 'page', 'pageSize', 'total']);
    expect(response.body.page).toBe(1);
    expect(response.body.pageSize).toBe(10);
    expect(response.body.total).toBe(created.length);
    expect(response.body.data).toHaveLength(10);
  });

  it('walks every page once, ordered by created_at then id', async () => {
    const pageSize = 7;
    const seen: string[] = [];
    let page = 1;
    for (;;) {
      const response = await tenant.get<Page<AssetSummary>>(
        `/assets?page=${page}&pageSize=${pageSize}`,
      );
      expect(response.status).toBe(200);
      expect(response.body.total).toBe(created.length);
      expect(response.body.page).toBe(page);
      expect(response.body.data.length).toBeLessThanOrEqual(pageSize);
      seen.push(...response.body.data.map((asset) => asset.id));
      if (page * pageSize >= response.body.total) break;
      expect(response.body.data).toHaveLength(pageSize);
      page++;
    }
    expect(page).toBe(Math.ceil(created.length / pageSize));
    expect(new Set(seen).size).toBe(seen.length);
    const expected = [...created]
      .sort((a, b) =>
        a.created_at === b.created_at
          ? a.id.localeCompare(b.id)
          : a.created_at.localeCompare(b.created_at),
      )
      .map((asset) => asset.id);
    expect(seen).toEqual(expected);
    // Created one after another, so creation order is that order too.
    expect(seen).toEqual(created.map((asset) => asset.id));

    const beyond = await tenant.get<Page<AssetSummary>>(`/assets?page=${page + 1}&pageSize=7`);
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.total).toBe(created.length);
  });

  it('returns a bare array of every asset, in the same order, without page', async () => {
    const response = await tenant.get<AssetSummary[]>('/assets');
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    expect(response.body.map((asset) => asset.id)).toEqual(created.map((asset) => asset.id));
    // pageSize alone does not switch to the envelope.
    const sized = await tenant.get<AssetSummary[]>('/assets?pageSize=5');
    expect(sized.status).toBe(200);
    expect(Array.isArray(sized.body)).toBe(true);
  });

  it('sends the bare array byte for byte as the pages serialise the same rows, with the same headers', async () => {
    const bare = await tenant.get<AssetSummary[]>('/assets');
    const all = await tenant.get<Page<AssetSummary>>('/assets?page=1&pageSize=200');
    expect(bare.status).toBe(200);
    expect(all.body.data).toHaveLength(created.length);
    // The register's bytes reach the client as they are: no whitespace, the fields in the
    // order the page (serialised by the gateway) has them, the same rows.
    expect(bare.text).toBe(JSON.stringify(bare.body));
    expect(bare.text).toBe(JSON.stringify(all.body.data));
    expect(bare.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(bare.headers.get('content-length')).toBe(String(Buffer.byteLength(bare.text)));
    // Every header a page carries (the limits and quota among them), with nothing lost.
    const names = (headers: Headers) => [...headers.keys()].sort();
    expect(names(bare.headers)).toEqual(names(all.headers));
    for (const name of LIMIT_HEADERS) expect(bare.headers.get(name)).toMatch(/^(\d+|unlimited)$/);
    expect(Number(bare.headers.get('x-quota-used'))).toBeGreaterThan(0);
  });

  it('cuts the bare array where its JSON would pass 15 MiB, keeping the order', async () => {
    const own = await stack.tenant('pro', 'write');
    // Rows at the limits: five text fields of 200 × U+0001, 6 bytes each in JSON; 3,000 such
    // rows are about 18 MiB, which the register, RabbitMQ and the gateway would all carry.
    await stack.query(
      `INSERT INTO register.assets (id, workspace_id, name, sku, brand, model, serial_number,
         asset_tag, created_at)
       SELECT 'ast_big_' || lpad(g::text, 5, '0'), $1, repeat(chr(1), 200), repeat(chr(1), 200),
              repeat(chr(1), 200), repeat(chr(1), 200), repeat(chr(1), 200), 'BIG-' || g,
              '2025-01-01T00:00:00Z'
       FROM generate_series(1, 3000) g`,
      [own.workspace.id],
    );
    const response = await own.get<AssetSummary[]>('/assets');
    expect(response.status).toBe(200);
    expect(Buffer.byteLength(response.text)).toBeLessThanOrEqual(UNPAGED_MAX_BYTES);
    expect(response.body.length).toBeGreaterThan(1_000);
    expect(response.body.length).toBeLessThan(3_000);
    expect(response.body.map((asset) => asset.id)).toEqual(
      Array.from(response.body, (_, i) => `ast_big_${String(i + 1).padStart(5, '0')}`),
    );
  }, 30_000);

  it('answers the bare array again only while nothing it shows changed (the gateway keeps its bytes)', async () => {
    const own = await stack.tenant('pro', 'write');
    const bare = async () => {
      const response = await own.get<AssetSummary[]>('/assets');
      expect(response.status).toBe(200);
      return response.body;
    };
    const drill = (await own.post<AssetDetail>('/assets', { name: 'Drill' })).body;
    expect((await bare()).map((asset) => asset.name)).toEqual(['Drill']);
    expect((await bare()).map((asset) => asset.name)).toEqual(['Drill']);

    expect((await own.patch(`/assets/${drill.id}`, { model: 'X-100' })).status).toBe(200);
    expect((await bare())[0]).toMatchObject({ name: 'Drill', model: 'X-100' });

    const ada = (await own.post<{ id: string }>('/people', { full_name: 'Ada', email: 'a@x.io' }))
      .body;
    expect((await own.patch(`/assets/${drill.id}`, { assigned_to_id: ada.id })).status).toBe(200);
    expect((await bare())[0]!.assigned_to).toEqual({ id: ada.id, name: 'Ada' });
    // The holder's name is another table's row.
    expect((await own.patch(`/people/${ada.id}`, { full_name: 'Ada L.' })).status).toBe(200);
    expect((await bare())[0]!.assigned_to).toEqual({ id: ada.id, name: 'Ada L.' });

    // A write that bypasses the services is seen too.
    await stack.query(`UPDATE register.assets SET name = 'Hammer drill' WHERE id = $1`, [drill.id]);
    expect((await bare()).map((asset) => asset.name)).toEqual(['Hammer drill']);
    // Another workspace's copy is its own.
    expect(await tenant.get<AssetSummary[]>('/assets').then((r) => r.body.length)).toBe(
      created.length,
    );
  });

  it('uses a page size of 50 by default', async () => {
    expect(created.length).toBeGreaterThan(50);
    const response = await tenant.get<Page<AssetSummary>>('/assets?page=1');
    expect(response.body.pageSize).toBe(50);
    expect(response.body.data).toHaveLength(50);
    const second = await tenant.get<Page<AssetSummary>>('/assets?page=2');
    expect(second.body.data).toHaveLength(created.length - 50);
    expect(second.body.data[0]!.id).toBe(created[50]!.id);
  });

  it('accepts page sizes 1 and 200', async () => {
    const one = await tenant.get<Page<AssetSummary>>('/assets?page=3&pageSize=1');
    expect(one.status).toBe(200);
    expect(one.body.pageSize).toBe(1);
    expect(one.body.data.map((asset) => asset.id)).toEqual([created[2]!.id]);

    const max = await tenant.get<Page<AssetSummary>>('/assets?page=1&pageSize=200');
    expect(max.status).toBe(200);
    expect(max.body.pageSize).toBe(200);
    expect(max.body.data).toHaveLength(created.length);
  });

  it.each(['0', '201', 'abc', '-1', '1.5'])('refuses pageSize=%s naming pageSize', async (size) => {
    expect(await badRequest(`?page=1&pageSize=${size}`)).toMatch(/\bpageSize\b/);
  });

  it.each(['0', '-1', 'abc'])('refuses page=%s naming page', async (page) => {
    expect(await badRequest(`?page=${page}`)).toMatch(/\bpage\b/);
  });

  it('sorts by name or by when it changed, either way, and refuses another sort by name', async () => {
    const byName = await tenant.get<Page<AssetSummary>>(`/assets?page=1&pageSize=200&sort=-name`);
    expect(byName.status).toBe(200);
    expect(byName.body.total).toBe(created.length);
    const names = byName.body.data.map((asset) => asset.name);
    const [collated] = await stack.query<{ names: string[] }>(
      `SELECT array_agg(name ORDER BY name DESC, id DESC) AS names FROM register.assets
        WHERE workspace_id = $1`,
      [tenant.workspace.id],
    );
    expect(names).toEqual(collated?.names);
    const newest = await tenant.get<Page<AssetSummary>>(
      `/assets?page=1&pageSize=3&sort=-created_at`,
    );
    expect(newest.body.data.map((asset) => asset.id)).toEqual(
      created
        .slice(-3)
        .reverse()
        .map((asset) => asset.id),
    );
    expect(await badRequest('?sort=brand')).toBe(
      'sort must be one of created_at, name, updated_at, each with - before it for descending',
    );
  });

  it('refuses an unknown query parameter by name', async () => {
    expect(await badRequest('?page=1&page_size=10')).toMatch(/\bpage_size\b/);
    expect(await badRequest('?colour=red')).toMatch(/\bcolour\b/);
  });

  it('accepted all six statuses on create and filters by each of them', async () => {
    for (const status of STATUSES) {
      expect(special[status]!.status).toBe(status);
      const matches = await list(`?status=${status}`);
      const expected = created.filter((asset) => asset.status === status).map((a) => a.id);
      expect(matches.map((asset) => asset.id)).toEqual(expected);
      expect(matches.every((asset) => asset.status === status)).toBe(true);
      const paged = await tenant.get<Page<AssetSummary>>(`/assets?page=1&status=${status}`);
      expect(paged.body.total).toBe(expected.length);
    }
    // Only the probe is anything but active.
    expect((await list('?status=stolen')).map((asset) => asset.id)).toEqual([special.stolen!.id]);
  });

  it('refuses an unknown status naming status', async () => {
    expect(await badRequest('?status=broken')).toMatch(/\bstatus\b/);
    expect(await badRequest('?status=ACTIVE')).toMatch(/\bstatus\b/);
  });

  it.each([
    ['name', 'name', 'quokkaPHONE'],
    ['asset_tag', 'tag', 'tagzulu'],
    ['serial_number', 'serial', 'xyloquartz'],
    ['brand', 'brand', 'WOMBATRON'],
    ['model', 'model', 'kestrel-mk'],
    ['sku', 'sku', 'pelicanbay'],
  ])('search matches %s, case-insensitive substring', async (_field, which, term) => {
    const matches = await search(term);
    expect(matches.map((asset) => asset.id)).toEqual([special[which]!.id]);
    const paged = await tenant.get<Page<AssetSummary>>(
      `/assets?page=1&search=${encodeURIComponent(term)}`,
    );
    expect(paged.body.total).toBe(1);
  });

  it('search combines with the status filter', async () => {
    expect((await search('probe')).length).toBe(STATUSES.length);
    const matches = await list('?search=probe&status=lost');
    expect(matches.map((asset) => asset.id)).toEqual([special.lost!.id]);
  });

  it('treats % and _ in search as literal characters', async () => {
    expect((await search('%')).map((asset) => asset.id)).toEqual([special.percent!.id]);
    expect((await search('50%')).map((asset) => asset.id)).toEqual([special.percent!.id]);
    expect((await search('_')).map((asset) => asset.id)).toEqual([special.underscore!.id]);
    expect((await search('k_s')).map((asset) => asset.id)).toEqual([special.underscore!.id]);
    // As wildcards these would match: "Discount 50% tablet" and "Tagged" respectively.
    expect(await search('Disc%tablet')).toEqual([]);
    expect(await search('T_gged')).toEqual([]);
    expect(await search('nothing-matches-this')).toEqual([]);
  });

  it('lists items with exactly the summary keys', async () => {
    const response = await tenant.get<Page<AssetSummary>>('/assets?page=1&pageSize=200');
    for (const asset of response.body.data) {
      expect(Object.keys(asset).sort()).toEqual(SUMMARY_KEYS);
      expect(asset.updated_at).toMatch(TIMESTAMP);
      expect(asset.category === null || Object.keys(asset.category).join() === 'name').toBe(true);
    }
    const detail = created.find((asset) => asset.id === special.model!.id)!;
    const summary = response.body.data.find((asset) => asset.id === detail.id)!;
    expect(summary).toEqual({
      id: detail.id,
      name: 'Model holder',
      sku: null,
      status: 'active',
      brand: null,
      model: 'Kestrel-MK9',
      serial_number: null,
      category: null,
      assigned_to: null,
      updated_at: detail.updated_at,
    });
  });

  it('shows the category of a listed asset as {name}', async () => {
    const withCategory = await create({ name: 'Categorised', category: 'Monitors' });
    const matches = await search('Categorised');
    expect(matches).toHaveLength(1);
    expect(matches[0]!.id).toBe(withCategory.id);
    expect(matches[0]!.category).toEqual({ name: 'Monitors' });
    expect(Object.keys(matches[0]!).sort()).toEqual(SUMMARY_KEYS);
  });
});
