import type { ErrorBody, MemberView } from '@custodian/contracts';
import type { ConsoleClient } from './support/console-client';
import { consoleOwner } from './support/console-sign-in';
import { TestStack, type Tenant } from './support/stack';

const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

/** One resource whose single record takes If-Match, as the public API and the console serve it. */
interface Resource {
  /** How the 412 names it: `<label> <id> changed since you read it`. */
  label: string;
  /** Makes one through the API: its id and its path under /api/v1. */
  create(): Promise<{ id: string; path: string; etag: string | null }>;
  /** Its path in the console's API. */
  consolePath(id: string): string;
  /** Three different changes: the first writer's, the stale writer's, the console's. */
  changes: [object, object, object];
  /** Whether DELETE takes If-Match (and what a GET answers after it). */
  delete?: { gone: boolean };
}

/**
 * Issue 35 item 2 for every single record beyond assets and people: each GET answers a strong
 * ETag and a 304 to the copy held, and each PATCH and DELETE (public and console) with an
 * If-Match that is no longer current is refused with 412 naming the record, nothing written.
 * A PATCH with the tag the GET gave going through is what shows that the register hashes the
 * very representation the GET answers. One stack for all of it.
 */
describe('conditional writes on every record (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;
  let owner: ConsoleClient;
  let assetId: string;
  let personId: string;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    owner = await consoleOwner(stack, tenant.workspace.id, 'owner@conditional.example');
    const [asset, person] = await Promise.all([
      tenant.post<{ id: string }>('/assets', { name: 'Projector' }),
      tenant.post<{ id: string }>('/people', { full_name: 'Grace Hopper' }),
    ]);
    assetId = asset.body.id;
    personId = person.body.id;
  }, 90_000);

  afterAll(async () => {
    await stack.stop();
  });

  /** POSTs `body` to `path`: the record's id, its path and the ETag its creation answered. */
  async function made(path: string, body: object) {
    const res = await tenant.post<{ id: string }>(path, body);
    expect(res.status).toBe(201);
    const id = res.body.id;
    const base = path.startsWith('/assets/') ? '/maintenance' : path;
    return { id, path: `${base}/${id}`, etag: res.headers.get('etag') };
  }

  const resources: Resource[] = [
    {
      label: 'Location',
      create: () => made('/locations', { name: 'Warehouse' }),
      consolePath: (id) => `/console/api/locations/${id}`,
      changes: [{ address: '1 Dock Road' }, { name: 'Depot' }, { notes: 'Gate code 42' }],
      delete: { gone: true },
    },
    {
      label: 'Category',
      create: () => made('/categories', { name: 'Projectors' }),
      consolePath: (id) => `/console/api/categories/${id}`,
      changes: [{ name: 'Beamers' }, { name: 'Displays' }, { name: 'Video' }],
      delete: { gone: true },
    },
    {
      label: 'Reminder',
      create: () => made('/reminders', { title: 'Lamp check', due_at: at(24), asset_id: assetId }),
      consolePath: (id) => `/console/api/reminders/${id}`,
      changes: [{ title: 'Lamp swap' }, { notes: 'stale' }, { notes: 'Spare in the cupboard' }],
      // Cancelled, kept for the record.
      delete: { gone: false },
    },
    {
      label: 'License',
      create: () => made('/licenses', { name: 'Slides Pro', seats: 2 }),
      consolePath: (id) => `/console/api/licenses/${id}`,
      changes: [{ vendor: 'Acme' }, { seats: 5 }, { notes: 'Renew in spring' }],
      // To the bin: gone from fetches.
      delete: { gone: true },
    },
    {
      label: 'Maintenance',
      create: () => made(`/assets/${assetId}/maintenance`, { title: 'Lamp', type: 'repair' }),
      consolePath: (id) => `/console/api/maintenance/${id}`,
      changes: [{ title: 'New lamp' }, { cost: '90.00' }, { notes: 'Ordered' }],
    },
    {
      label: 'Booking',
      create: () =>
        made('/bookings', {
          person_id: personId,
          asset_ids: [assetId],
          starts_at: at(48),
          ends_at: at(50),
        }),
      consolePath: (id) => `/console/api/bookings/${id}`,
      changes: [{ notes: 'For the board' }, { ends_at: at(51) }, { notes: 'Room 2' }],
    },
  ];

  type Refusal = ErrorBody & { error: string };

  function expectRefused(res: { status: number; body: unknown }, what: string, now: string) {
    expect(res.status).toBe(412);
    const body = res.body as Refusal;
    expect(body.error).toBe('Precondition Failed');
    expect(body.message).toMatch(
      new RegExp(`^${what} changed since you read it .*it is now ${now}`),
    );
  }

  it.each(resources.map((resource) => [resource.label, resource] as const))(
    '%s: ETag, 304, If-Match on PATCH and DELETE (API and console)',
    async (_label, resource) => {
      const { id, path, etag: createdTag } = await resource.create();
      const what = `${resource.label} ${id}`;
      const etagOf = async () => {
        const res = await tenant.get(path);
        expect(res.status).toBe(200);
        return res.headers.get('etag') ?? '';
      };

      const first = await etagOf();
      expect(first).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      // The creation answers the same representation as the GET.
      expect(createdTag).toBe(first);
      const unchanged = await tenant.request(path, { headers: { 'if-none-match': first } });
      expect([unchanged.status, unchanged.text]).toEqual([304, '']);

      // The tag the GET gave is the one the register checks: the change goes through.
      const [change, stale, consoleChange] = resource.changes;
      const patched = await tenant.request(path, {
        method: 'PATCH',
        headers: { 'if-match': first },
        body: change,
      });
      expect(patched.status).toBe(200);
      const second = patched.headers.get('etag') ?? '';
      expect(second).not.toBe(first);
      expect(await etagOf()).toBe(second);

      // A writer that read the first version: refused, and nothing of it written.
      const refused = await tenant.request(path, {
        method: 'PATCH',
        headers: { 'if-match': first },
        body: stale,
      });
      expectRefused(refused, what, second);
      expect(await etagOf()).toBe(second);

      // The console serves the same representation, so the same tags hold there.
      const consolePath = resource.consolePath(id);
      const inConsole = await owner.get(consolePath);
      expect([inConsole.status, inConsole.headers.get('etag')]).toEqual([200, second]);
      const viaConsole = await owner.request('PATCH', consolePath, stale, { 'if-match': first });
      expectRefused(viaConsole, what, second);
      const consoleWrite = await owner.request('PATCH', consolePath, consoleChange, {
        'if-match': second,
      });
      expect(consoleWrite.status).toBe(200);
      const third = consoleWrite.headers.get('etag') ?? '';
      expect(await etagOf()).toBe(third);

      if (!resource.delete) return;
      const staleDelete = await tenant.request(path, {
        method: 'DELETE',
        headers: { 'if-match': second },
      });
      expectRefused(staleDelete, what, third);
      const staleConsoleDelete = await owner.request('DELETE', consolePath, undefined, {
        'if-match': second,
      });
      expectRefused(staleConsoleDelete, what, third);
      expect(await etagOf()).toBe(third);
      const deleted = await tenant.request(path, {
        method: 'DELETE',
        headers: { 'if-match': third },
      });
      expect(deleted.status).toBe(200);
      expect((await tenant.get(path)).status).toBe(resource.delete.gone ? 404 : 200);
    },
  );

  it('Member: the tag its invitation answered guards a role change', async () => {
    const invited = await tenant.post<MemberView>('/members', {
      email: 'tag@conditional.example',
      role: 'member',
    });
    expect(invited.status).toBe(201);
    const first = invited.headers.get('etag') ?? '';
    const path = `/members/${invited.body.id}`;
    const patched = await tenant.request<MemberView>(path, {
      method: 'PATCH',
      headers: { 'if-match': first },
      body: { role: 'manager' },
    });
    expect([patched.status, patched.body.role]).toEqual([200, 'manager']);
    const second = patched.headers.get('etag') ?? '';
    expect(second).not.toBe(first);
    const refused = await tenant.request(path, {
      method: 'PATCH',
      headers: { 'if-match': first },
      body: { role: 'admin' },
    });
    expectRefused(refused, `Member ${invited.body.id}`, second);
    const members = await tenant.get<MemberView[]>('/members');
    expect(members.body.find((member) => member.id === invited.body.id)?.role).toBe('manager');
    // The console's role change takes the same tags.
    const consolePath = `/console/api/members/${invited.body.id}`;
    const staleInConsole = await owner.request(
      'PATCH',
      consolePath,
      { role: 'admin' },
      {
        'if-match': first,
      },
    );
    expectRefused(staleInConsole, `Member ${invited.body.id}`, second);
    const inConsole = await owner.request<MemberView>(
      'PATCH',
      consolePath,
      { role: 'admin' },
      {
        'if-match': second,
      },
    );
    expect([inConsole.status, inConsole.body.role]).toEqual([200, 'admin']);
  });

  it('lets exactly one of two writers holding the same version through', async () => {
    const { path } = await made('/locations', { name: 'Annex' });
    const etag = (await tenant.get(path)).headers.get('etag') ?? '';
    const answers = await Promise.all(
      ['North wing', 'South wing'].map((address) =>
        tenant.request(path, { method: 'PATCH', headers: { 'if-match': etag }, body: { address } }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
  });
});
