import {
  GatewayAdminPatterns,
  type ErrorBody,
  type Page,
  type PersonDetail,
  type PersonSummary,
} from '@custodian/contracts';
import { Client } from 'pg';
import { TestStack, type Tenant } from './support/stack';

describe('people API (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);
  afterAll(() => stack.stop());

  async function events(workspaceId: string, event: string): Promise<Array<{ data: unknown }>> {
    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ data: unknown }>(
        `SELECT data FROM register.outbox WHERE workspace_id = $1 AND event = $2 ORDER BY id`,
        [workspaceId, event],
      );
      return rows;
    } finally {
      await client.end();
    }
  }

  it('creates a person with department and location, and fires employee.created', async () => {
    const created = await tenant.post<PersonDetail>('/people', {
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
      employee_number: 'E-1815',
      department: 'Engineering',
      location: 'London',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
      employee_number: 'E-1815',
      status: 'active',
      department: { name: 'Engineering' },
      location: { name: 'London' },
      holdings: [],
    });
    expect(created.body.id).toMatch(/^per_/);
    const fetched = await tenant.get<PersonDetail>(`/people/${created.body.id}`);
    expect(fetched.body).toEqual(created.body);
    const fired = await events(tenant.workspace.id, 'employee.created');
    expect(fired.map((row) => (row.data as PersonDetail).id)).toContain(created.body.id);
  });

  it('validates: full_name required, e-mail format, unknown fields; writes nothing', async () => {
    const before = (await tenant.get<Page<PersonSummary>>('/people?page=1')).body.total;
    const cases: Array<[unknown, string]> = [
      [{ email: 'x@example.com' }, 'full_name must be a string'],
      [{ full_name: 'X', email: 'not-an-email' }, 'email must be an e-mail address'],
      [{ full_name: 'X', shoe_size: 42 }, 'unknown field shoe_size'],
      [{ full_name: '   ' }, 'full_name must not be blank'],
      [
        { full_name: '\u{1F600}\uFE0F'.repeat(101) },
        'full_name must be between 1 and 200 characters',
      ],
      [
        { full_name: 'X', employee_number: 'E\uFE0F'.repeat(33) },
        'employee_number must be at most 64 characters',
      ],
      [
        { full_name: 'X', department: 'd\u0301'.repeat(101) },
        'department must be between 1 and 200 characters',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await tenant.post<ErrorBody>('/people', body);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
    }
    expect((await tenant.get<Page<PersonSummary>>('/people?page=1')).body.total).toBe(before);
  });

  it('lists with the envelope or a bare array, and searches name, e-mail and employee number', async () => {
    const own = await stack.tenant('pro', 'write');
    for (const [full_name, email, employee_number] of [
      ['Grace Hopper', 'grace@navy.example', 'N-1906'],
      ['Alan Turing', 'alan@bletchley.example', 'B-1912'],
      ['Katherine Johnson', 'kj@nasa.example', 'NASA-1918'],
    ]) {
      await own.post('/people', { full_name, email, employee_number });
    }
    const page = await own.get<Page<PersonSummary>>('/people?page=1&pageSize=2');
    expect(page.body).toMatchObject({ page: 1, pageSize: 2, total: 3 });
    expect(page.body.data.map((p) => p.full_name)).toEqual(['Grace Hopper', 'Alan Turing']);
    const bare = await own.get<PersonSummary[]>('/people');
    expect(bare.body).toHaveLength(3);
    // The register's bytes as they are, the same as the page serialises the same rows.
    const all = await own.get<Page<PersonSummary>>('/people?page=1');
    expect(bare.text).toBe(JSON.stringify(all.body.data));
    expect(bare.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(bare.headers.get('x-ratelimit-remaining')).not.toBeNull();
    for (const [term, name] of [
      ['hopper', 'Grace Hopper'],
      ['BLETCHLEY', 'Alan Turing'],
      ['nasa-19', 'Katherine Johnson'],
    ]) {
      const found = await own.get<PersonSummary[]>(`/people?search=${encodeURIComponent(term!)}`);
      expect(found.body.map((p) => p.full_name)).toEqual([name]);
    }
    expect((await own.get('/people?pageSize=0')).status).toBe(400);
  });

  it('PATCH is partial, null clears, and inactive fires employee.offboarded exactly once', async () => {
    const own = await stack.tenant('pro', 'write');
    const person = (
      await own.post<PersonDetail>('/people', {
        full_name: 'Linus',
        email: 'linus@example.com',
        department: 'Kernel',
      })
    ).body;
    const cleared = await own.patch<PersonDetail>(`/people/${person.id}`, {
      email: null,
      department: null,
    });
    expect(cleared.body).toMatchObject({ full_name: 'Linus', email: null, department: null });
    expect((await own.patch(`/people/${person.id}`, { full_name: null })).status).toBe(400);

    await own.patch(`/people/${person.id}`, { status: 'inactive' });
    await own.patch(`/people/${person.id}`, { status: 'inactive' });
    await own.patch(`/people/${person.id}`, { employee_number: 'X-1' });
    expect(await events(own.workspace.id, 'employee.offboarded')).toHaveLength(1);
    await own.patch(`/people/${person.id}`, { status: 'active' });
    await own.patch(`/people/${person.id}`, { status: 'inactive' });
    expect(await events(own.workspace.id, 'employee.offboarded')).toHaveLength(2);
  });

  it('enforces the people limit with 403 naming limit and plan, writing nothing', async () => {
    const own = await stack.tenant('pro', 'write');
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: own.workspace.id,
      people: '2',
    });
    expect((await own.post('/people', { full_name: 'One' })).status).toBe(201);
    expect((await own.post('/people', { full_name: 'Two' })).status).toBe(201);
    const refused = await own.post<ErrorBody>('/people', { full_name: 'Three' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('People limit of 2 reached on the pro plan');
    expect((await own.get<Page<PersonSummary>>('/people?page=1')).body.total).toBe(2);
    const reached = await events(own.workspace.id, 'plan.limit_reached');
    expect(reached).toHaveLength(1);
    expect(reached[0]!.data).toMatchObject({ limit: 'people', value: 2, plan: 'pro' });
  });

  it('answers 404 for a person of another workspace exactly as for a missing one', async () => {
    const other = await stack.tenant('pro', 'write');
    const theirs = (await other.post<PersonDetail>('/people', { full_name: 'Theirs' })).body;
    const foreign = await tenant.get(`/people/${theirs.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(
      JSON.stringify({
        statusCode: 404,
        error: 'Not Found',
        message: `Person ${theirs.id} not found`,
      }),
    );
    expect((await tenant.patch(`/people/${theirs.id}`, { full_name: 'Mine' })).status).toBe(404);
  });
});
