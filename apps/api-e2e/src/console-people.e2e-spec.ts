import {
  GatewayAdminPatterns,
  type Asset,
  type AssetSummary,
  type CreatedConsoleEndpoint,
  type ErrorBody,
  type EventEnvelope,
  type Page,
  type PersonDetail,
  type PersonSummary,
} from '@custodian/contracts';
import { WebhookReceiver, envelopeErrors, eventually } from '@custodian/testing';
import type { ConsoleClient } from './support/console-client';
import { consoleMember, consoleOwner } from './support/console-sign-in';
import { TestStack, type Tenant } from './support/stack';

/**
 * Issue 14 item 3 over HTTP: the register's people in the console. Each role may do what the
 * matrix in docs/decisions.md says and is refused the rest; console writes are the API's
 * writes (same validation, people limit and events); offboarding keeps what the person holds
 * and fires `employee.offboarded` once, at a real receiver.
 */

type Role = 'owner' | 'admin' | 'manager' | 'member';
const ROLES: Role[] = ['owner', 'admin', 'manager', 'member'];
/** Who may change people (people.manage); everyone may see them. */
const MANAGES: Record<Role, boolean> = { owner: true, admin: true, manager: true, member: false };

describe('console people: roles, the same domain services, offboarding (e2e)', () => {
  const stack = new TestStack({ env: { DELIVERY_INTERVAL_MS: '50' } });
  const receiver = new WebhookReceiver();
  let tenant: Tenant;
  const as = {} as Record<Role, ConsoleClient>;

  beforeAll(async () => {
    await receiver.start();
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    as.owner = await consoleOwner(stack, tenant.workspace.id, 'owner@people.example');
    as.admin = await consoleMember(tenant, 'admin', 'admin@people.example');
    as.manager = await consoleMember(tenant, 'manager', 'manager@people.example');
    as.member = await consoleMember(tenant, 'member', 'member@people.example');
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
  });

  it('walks the role matrix of every person route', async () => {
    const seeded = await tenant.post<PersonDetail>('/people', { full_name: 'Seeded Person' });
    expect(seeded.status).toBe(201);
    const seededPath = `/console/api/people/${seeded.body.id}`;
    for (const role of ROLES) {
      const client = as[role];
      const seen = async (what: string, pending: Promise<{ status: number }>, expected: number) =>
        expect({ role, what, status: (await pending).status }).toEqual({
          role,
          what,
          status: expected,
        });

      await seen('list', client.get('/console/api/people?search=seeded'), 200);
      const one = await client.get<PersonDetail>(seededPath);
      expect({ role, status: one.status, id: one.body.id }).toEqual({
        role,
        status: 200,
        id: seeded.body.id,
      });

      const created = await client.post<PersonDetail & ErrorBody>('/console/api/people', {
        full_name: `${role}'s hire`,
      });
      if (!MANAGES[role]) {
        const refusal = {
          statusCode: 403,
          error: 'Forbidden',
          message: `Your role (${role}) cannot change people; ask an owner or admin`,
        };
        expect([created.status, created.body]).toEqual([403, refusal]);
        const patched = await client.patch<ErrorBody>(seededPath, { status: 'inactive' });
        expect([patched.status, patched.body]).toEqual([403, refusal]);
        continue;
      }
      expect(created.status).toBe(201);
      const patched = await client.patch<PersonDetail>(`/console/api/people/${created.body.id}`, {
        department: `${role}s`,
      });
      expect([patched.status, patched.body.department?.name]).toEqual([200, `${role}s`]);
    }
    // The member's refusals changed nothing, and made nobody.
    const after = await tenant.get<PersonDetail>(`/people/${seeded.body.id}`);
    expect(after.body).toEqual(seeded.body);
    const hires = await tenant.get<Page<PersonSummary>>('/people?page=1&search=hire');
    expect(hires.body.data.map((person) => person.full_name).sort()).toEqual([
      "admin's hire",
      "manager's hire",
      "owner's hire",
    ]);
  }, 60_000);

  it('writes through the same services as the API: one person, one validation, one limit', async () => {
    const owner = as.owner;
    const made = await owner.post<PersonDetail>('/console/api/people', {
      full_name: 'Mary Jackson',
      email: 'mary@people.example',
      employee_number: 'NACA-1951',
      department: 'Engineering',
      location: 'Hampton',
      status: 'active',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      department: { name: 'Engineering' },
      location: { name: 'Hampton' },
      holdings: [],
      holdings_count: 0,
    });
    const viaApi = await tenant.get<PersonDetail>(`/people/${made.body.id}`);
    expect(viaApi.status).toBe(200);
    expect(viaApi.body).toEqual(made.body);
    const viaConsole = await owner.get<PersonDetail>(`/console/api/people/${made.body.id}`);
    expect(viaConsole.body).toEqual(made.body);

    // The same refusal, word for word, from either door, naming the field.
    const before = (await tenant.get<Page<PersonSummary>>('/people?page=1')).body.total;
    const creates: Array<[unknown, string]> = [
      [{ email: 'x@people.example' }, 'full_name must be a string'],
      [{ full_name: 'X', email: 'not-an-email' }, 'email must be an e-mail address'],
      [{ full_name: '   ' }, 'full_name must not be blank'],
      [{ full_name: 'X', status: 'offboarded' }, 'status must be one of'],
    ];
    for (const [body, message] of creates) {
      const fromConsole = await owner.post<ErrorBody>('/console/api/people', body);
      const fromApi = await tenant.post<ErrorBody>('/people', body);
      expect([fromConsole.status, fromConsole.body.error]).toEqual([400, 'Bad Request']);
      expect(fromConsole.body.message.startsWith(message)).toBe(true);
      expect(fromConsole.body).toEqual(fromApi.body);
    }
    expect((await tenant.get<Page<PersonSummary>>('/people?page=1')).body.total).toBe(before);
    const path = `/console/api/people/${made.body.id}`;
    for (const [body, message] of [
      [{ full_name: null }, 'full_name must be a string'],
      [{ status: null }, 'status must be one of'],
    ] as const) {
      const fromConsole = await owner.patch<ErrorBody>(path, body);
      const fromApi = await tenant.patch<ErrorBody>(`/people/${made.body.id}`, body);
      expect(fromConsole.status).toBe(400);
      expect(fromConsole.body.message.startsWith(message)).toBe(true);
      expect(fromConsole.body).toEqual(fromApi.body);
    }
    const unknown = await owner.get<ErrorBody>(
      '/console/api/people/per_00000000000000000000000000',
    );
    expect([unknown.status, unknown.body.message]).toEqual([
      404,
      'Person per_00000000000000000000000000 not found',
    ]);
    expect((await tenant.get<PersonDetail>(`/people/${made.body.id}`)).body).toEqual(made.body);

    // The plan's people limit applies to the console too.
    const count = (await tenant.get<Page<PersonSummary>>('/people?page=1')).body.total;
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      people: String(count),
    });
    const refused = await owner.post<ErrorBody>('/console/api/people', { full_name: 'One more' });
    expect([refused.status, refused.body.message]).toEqual([
      403,
      `People limit of ${count} reached on the pro plan`,
    ]);
    await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
      workspace: tenant.workspace.id,
      people: 'plan',
    });
  });

  it('offboards a person who still holds an asset: it stays out, and the event fires once', async () => {
    const owner = as.owner;
    const endpoint = await owner.post<CreatedConsoleEndpoint>('/console/api/webhooks', {
      url: receiver.url('/people'),
      events: ['employee.created', 'employee.offboarded'],
    });
    expect(endpoint.status).toBe(201);
    const person = await owner.post<PersonDetail>('/console/api/people', {
      full_name: 'Christine Darden',
      email: 'christine@people.example',
    });
    expect(person.status).toBe(201);
    const laptop = await tenant.post<Asset>('/assets', {
      name: 'Wind-tunnel laptop',
      assigned_to_id: person.body.id,
    });
    expect(laptop.status).toBe(201);

    // What the person page lists as holdings, and the offboarding dialog before confirming.
    const held = await owner.get<Page<AssetSummary>>(
      `/console/api/assets?assigned_to_id=${person.body.id}&page=1&pageSize=20`,
    );
    expect(held.body.data.map((asset) => asset.id)).toEqual([laptop.body.id]);

    const path = `/console/api/people/${person.body.id}`;
    const offboarded = await owner.patch<PersonDetail>(path, { status: 'inactive' });
    expect(offboarded.status).toBe(200);
    expect(offboarded.body).toMatchObject({
      status: 'inactive',
      holdings: [{ id: laptop.body.id, name: 'Wind-tunnel laptop' }],
      holdings_count: 1,
    });
    expect((await tenant.get<PersonDetail>(`/people/${person.body.id}`)).body).toEqual(
      offboarded.body,
    );
    const again = await owner.patch<PersonDetail>(path, { status: 'inactive' });
    expect(again.body).toEqual(offboarded.body);
    const stillOut = await tenant.get<Asset>(`/assets/${laptop.body.id}`);
    expect(stillOut.body.assigned_to?.id).toBe(person.body.id);

    const envelopes = await eventually(() => {
      const got = receiver
        .on('/people')
        .map((request) => JSON.parse(request.rawBody) as EventEnvelope<PersonDetail>);
      if (got.length < 2) throw new Error(`${got.length} of 2 events`);
      // Deliveries run side by side and may arrive in any order: the receiver orders them by
      // created_at, as the spec tells receivers to (a CI run saw the offboarding arrive first).
      return Promise.resolve(got.sort((a, b) => a.created_at.localeCompare(b.created_at)));
    });
    for (const envelope of envelopes) expect(envelopeErrors(envelope)).toEqual([]);
    expect(envelopes.map((envelope) => envelope.event)).toEqual([
      'employee.created',
      'employee.offboarded',
    ]);
    expect(envelopes[0]!.data).toEqual(person.body);
    expect(envelopes[1]!.data).toEqual(offboarded.body);
    // Once: the second PATCH to inactive wrote no event (the outbox is where events start).
    const written = await stack.query<{ count: string }>(
      `SELECT count(*) FROM register.outbox
       WHERE workspace_id = $1 AND event = 'employee.offboarded' AND data->>'id' = $2`,
      [tenant.workspace.id, person.body.id],
    );
    expect(written[0]?.count).toBe('1');
  }, 30_000);
});
