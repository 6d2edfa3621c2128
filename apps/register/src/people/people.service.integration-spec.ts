import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter } from '@custodian/messaging';
import {
  type CallerContext,
  CreatePersonInput,
  type EffectiveLimits,
  PERSON_STATUSES,
  type PersonSummary,
  type RawQuery,
  UpdatePersonInput,
} from '@custodian/contracts';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  type ClientBody,
  testCaller,
  type MigratedDatabase,
  pageOf,
  unpagedArray,
} from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { parseListQuery } from '../listing/list-query';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { PeopleService } from './people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';

/** The register's people SQL on a fresh, migrated database: no broker, no gateway. */

let store: MigratedDatabase;
let db: DataSource;
let service: PeopleService;

/** Events go to register.outbox, as the app's OutboxModule writes them. */
const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 6));
  db = store.db;
  service = new PeopleService(
    new ReadTransactions(db),
    new WriteTransactions(db),
    writer,
    activity,
  );
}, 30_000);

afterAll(() => store?.close());

/** The one place this file calls the service, with bodies as its consumer receives them. */
function workspace(options: { workspaceId?: string; limits?: Partial<EffectiveLimits> } = {}) {
  const caller: CallerContext = testCaller(options);
  return {
    id: caller.workspaceId,
    create: async (body: ClientBody<CreatePersonInput>) =>
      service.create(caller, await received(CreatePersonInput, body)),
    update: async (id: string, body: ClientBody<UpdatePersonInput>) =>
      service.update(caller, id, await received(UpdatePersonInput, body)),
    get: (id: string) => service.get(caller, id),
    all: async (query: RawQuery = {}) =>
      unpagedArray(await service.list(caller, parseListQuery(query, PERSON_STATUSES))),
    page: async (query: RawQuery) =>
      pageOf(await service.list(caller, parseListQuery(query, PERSON_STATUSES))),
  };
}

interface OutboxRow {
  event: string;
  data: Record<string, unknown>;
  created_at: Date;
}

function outbox(workspaceId: string): Promise<OutboxRow[]> {
  return db.query(
    `SELECT event, data, created_at FROM register.outbox WHERE workspace_id = $1
     ORDER BY created_at, id`,
    [workspaceId],
  );
}

async function personCount(workspaceId: string): Promise<number | null> {
  const rows = await db.query<Array<{ person_count: number }>>(
    `SELECT person_count FROM register.workspace_counters WHERE workspace_id = $1`,
    [workspaceId],
  );
  return rows[0]?.person_count ?? null;
}

async function peopleRows(workspaceId: string) {
  return db.query<Array<Record<string, unknown>>>(
    `SELECT * FROM register.people WHERE workspace_id = $1 ORDER BY id`,
    [workspaceId],
  );
}

const names = (people: PersonSummary[]) => people.map((person) => person.full_name);

describe('create', () => {
  it('stores the person, counts it and writes employee.created in the same transaction', async () => {
    const ws = workspace();
    const person = await ws.create({
      full_name: '  Grace Hopper ',
      email: 'grace@example.com',
      employee_number: 'E-1',
      department: 'Engineering',
      location: 'Arlington',
    });
    expect(person).toMatchObject({
      full_name: 'Grace Hopper',
      email: 'grace@example.com',
      employee_number: 'E-1',
      status: 'active',
      department: { name: 'Engineering' },
      location: { name: 'Arlington' },
      holdings: [],
    });
    expect(await ws.get(person.id)).toEqual(person);
    expect(await personCount(ws.id)).toBe(1);
    const rows = await outbox(ws.id);
    expect(rows.map((row) => [row.event, row.data])).toEqual([['employee.created', person]]);
    expect(rows[0]!.created_at.toISOString()).toBe(person.created_at);
  });

  it('creates departments and locations on first use and reuses them', async () => {
    const ws = workspace();
    const first = await ws.create({ full_name: 'A', department: 'Sales', location: 'Paris' });
    const second = await ws.create({ full_name: 'B', department: 'sales', location: ' PARIS ' });
    expect(second.department).toEqual(first.department);
    expect(second.location).toEqual(first.location);
    const departments = await db.query<Array<{ name: string }>>(
      `SELECT name FROM register.departments WHERE workspace_id = $1`,
      [ws.id],
    );
    expect(departments).toEqual([{ name: 'Sales' }]);
  });

  it('refuses the person past the people limit, naming limit and plan, with no row and no event', async () => {
    const ws = workspace({ limits: { people: 2 } });
    await ws.create({ full_name: 'One' });
    await ws.create({ full_name: 'Two' });
    const rowsBefore = await peopleRows(ws.id);
    const refused = await domainRejection(ws.create({ full_name: 'Three', department: 'Never' }));
    expect(refused).toMatchObject({
      code: 'limit_reached',
      message: 'People limit of 2 reached on the pro plan',
    });
    expect(await peopleRows(ws.id)).toEqual(rowsBefore);
    expect(await personCount(ws.id)).toBe(2);
    const events = await outbox(ws.id);
    expect(events.map((row) => row.event)).toEqual([
      'employee.created',
      'employee.created',
      'plan.limit_reached',
    ]);
    expect(events[2]!.data).toEqual({
      workspace: { id: ws.id },
      plan: 'pro',
      limit: 'people',
      value: 2,
    });
    const departments = await db.query<unknown[]>(
      `SELECT 1 FROM register.departments WHERE workspace_id = $1`,
      [ws.id],
    );
    expect(departments).toEqual([]);
  });

  it('lets exactly the limit through when creates race, with one plan.limit_reached', async () => {
    const ws = workspace({ limits: { people: 2 } });
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => ws.create({ full_name: `Racer ${i}` })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2);
    expect(await personCount(ws.id)).toBe(2);
    expect((await peopleRows(ws.id)).length).toBe(2);
    const crossings = (await outbox(ws.id)).filter((row) => row.event === 'plan.limit_reached');
    expect(crossings).toHaveLength(1);
  });
});

describe('list', () => {
  it('orders by created_at then id, pages with the total, and filters by status', async () => {
    const ws = workspace();
    const ids: string[] = [];
    for (const name of ['Ana', 'Bo', 'Cy', 'Di', 'Ed'])
      ids.push((await ws.create({ full_name: name })).id);
    // The last two get the earliest timestamp, tied: the id breaks the tie.
    await db.query(
      `UPDATE register.people SET created_at = '2025-01-01T00:00:00Z' WHERE id = ANY($1)`,
      [[ids[3], ids[4]]],
    );
    expect(names(await ws.all())).toEqual(['Di', 'Ed', 'Ana', 'Bo', 'Cy']);
    const pages = [
      await ws.page({ page: '1', pageSize: '2' }),
      await ws.page({ page: '2', pageSize: '2' }),
      await ws.page({ page: '3', pageSize: '2' }),
    ];
    expect(pages.flatMap((page) => names(page.data))).toEqual(['Di', 'Ed', 'Ana', 'Bo', 'Cy']);
    expect(pages.map((page) => page.total)).toEqual([5, 5, 5]);

    await ws.update(ids[1]!, { status: 'inactive' });
    const inactive = await ws.page({ status: 'inactive', page: '1' });
    expect(names(inactive.data)).toEqual(['Bo']);
    expect(inactive.total).toBe(1);
    expect(names(await ws.all({ status: 'active' }))).toEqual(['Di', 'Ed', 'Ana', 'Cy']);
  });

  it('searches name, e-mail and employee number case-insensitively, literally', async () => {
    const ws = workspace();
    await ws.create({ full_name: 'Linus Torvalds', email: 'linus@kernel.org' });
    await ws.create({ full_name: 'Ada', email: 'ADA@Example.com', employee_number: 'EMP_001' });
    await ws.create({ full_name: 'Tim', employee_number: 'EMPX001' });
    const search = async (text: string) => names(await ws.all({ search: text }));
    expect(await search('TORVALDS')).toEqual(['Linus Torvalds']);
    expect(await search('ada@example')).toEqual(['Ada']);
    expect(await search('kernel.ORG')).toEqual(['Linus Torvalds']);
    expect(await search('emp_001')).toEqual(['Ada']);
    expect(await search('emp')).toEqual(['Ada', 'Tim']);
    const paged = await ws.page({ search: 'emp', page: '1', pageSize: '1' });
    expect(paged).toMatchObject({ total: 2, data: [{ full_name: 'Ada' }] });
  });

  it("never lists or finds another workspace's person", async () => {
    const mine = workspace();
    const theirs = workspace();
    const hidden = await theirs.create({ full_name: 'Hidden Person', email: 'h@example.com' });
    await mine.create({ full_name: 'Visible' });
    expect(names(await mine.all())).toEqual(['Visible']);
    expect(await mine.all({ search: 'hidden' })).toEqual([]);
    expect(await domainRejection(mine.get(hidden.id))).toMatchObject({
      code: 'not_found',
      message: `Person ${hidden.id} not found`,
    });
    const before = await peopleRows(theirs.id);
    expect(await domainRejection(mine.update(hidden.id, { status: 'inactive' }))).toMatchObject({
      code: 'not_found',
    });
    expect(await peopleRows(theirs.id)).toEqual(before);
    expect((await outbox(theirs.id)).map((row) => row.event)).toEqual(['employee.created']);
  });
});

describe('update', () => {
  it('keeps omitted fields, clears null ones and refuses null for full_name and status', async () => {
    const ws = workspace();
    const person = await ws.create({
      full_name: 'Kim',
      email: 'kim@example.com',
      employee_number: 'K-1',
      department: 'Ops',
      location: 'Oslo',
    });
    const updated = await ws.update(person.id, { email: null, department: null });
    expect(updated).toMatchObject({
      full_name: 'Kim',
      email: null,
      employee_number: 'K-1',
      department: null,
      location: person.location,
    });
    const before = await peopleRows(ws.id);
    for (const field of ['full_name', 'status'] as const) {
      const refused = await domainRejection(ws.update(person.id, { [field]: null }));
      expect(refused.code).toBe('invalid_input');
      expect(refused.message).toContain(field);
    }
    expect(await peopleRows(ws.id)).toEqual(before);
  });

  it('writes employee.offboarded on the move to inactive, once, and again after a return', async () => {
    const ws = workspace();
    const person = await ws.create({ full_name: 'Lee' });
    const offboarded = await ws.update(person.id, { status: 'inactive' });
    await ws.update(person.id, { status: 'inactive' });
    await ws.update(person.id, { status: 'inactive', full_name: 'Lee Gone' });
    const offboardings = () =>
      outbox(ws.id).then((rows) => rows.filter((row) => row.event === 'employee.offboarded'));
    expect((await offboardings()).map((row) => row.data)).toEqual([offboarded]);
    await ws.update(person.id, { status: 'active' });
    await ws.update(person.id, { status: 'inactive' });
    expect(await offboardings()).toHaveLength(2);
  });

  it('writes employee.offboarded once when offboarding requests race', async () => {
    const ws = workspace();
    const person = await ws.create({ full_name: 'Raced' });
    await Promise.all(
      Array.from({ length: 4 }, () => ws.update(person.id, { status: 'inactive' })),
    );
    const events = (await outbox(ws.id)).map((row) => row.event);
    expect(events.filter((event) => event === 'employee.offboarded')).toHaveLength(1);
  });

  it('writes no employee.offboarded for a person created inactive', async () => {
    const ws = workspace();
    const person = await ws.create({ full_name: 'Former', status: 'inactive' });
    await ws.update(person.id, { status: 'inactive' });
    expect((await outbox(ws.id)).map((row) => row.event)).toEqual(['employee.created']);
  });
});
