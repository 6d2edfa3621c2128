import {
  AssignSeatInput,
  CreateAssetInput,
  CreateLicenseInput,
  CreatePersonInput,
  UpdateLicenseInput,
  UpdateLicenseSettingsInput,
  UpdatePersonInput,
  type CallerContext,
} from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog, newId } from '@custodian/persistence';
import { developmentSecretKeys } from '@custodian/secret-cipher';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  testCaller,
  type ClientBody,
  type MigratedDatabase,
} from '@custodian/testing';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AssetsService } from '../assets/assets.service';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { LicenseSettingsService } from './license-settings';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { LicenseKeyCipher } from './license-key-cipher';
import { LicensesService } from './licenses.service';

/** Licences and seats on a fresh migrated database: the rules, the count under a race, keys. */

let store: MigratedDatabase;
let db: DataSource;
let licenses: LicensesService;
let assets: AssetsService;
let people: PeopleService;
let reads: ReadTransactions;
let writes: WriteTransactions;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');
const DEV_KEYS = developmentSecretKeys('LICENSE_KEY_SECRETS');

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 24));
  db = store.db;
  reads = new ReadTransactions(db);
  writes = new WriteTransactions(db);
  licenses = new LicensesService(
    reads,
    writes,
    writer,
    activity,
    new LicenseKeyCipher({ LICENSE_KEY_SECRETS: DEV_KEYS }),
  );
  assets = new AssetsService(reads, writes, writer, activity);
  people = new PeopleService(reads, writes, writer, activity);
}, 30_000);

afterAll(() => store?.close());

function workspace() {
  const key: CallerContext = testCaller();
  return {
    key,
    create: async (body: ClientBody<CreateLicenseInput>) =>
      licenses.create(key, await received(CreateLicenseInput, body)),
    update: async (id: string, body: ClientBody<UpdateLicenseInput>) =>
      licenses.update(key, id, await received(UpdateLicenseInput, body)),
    assign: async (id: string, body: ClientBody<AssignSeatInput>, caller = key) =>
      licenses.assignSeat(caller, id, await received(AssignSeatInput, body)),
    person: async (full_name: string) =>
      people.create(key, await received(CreatePersonInput, { full_name })),
    asset: async (name: string) => assets.create(key, await received(CreateAssetInput, { name })),
    member: async (role: string): Promise<CallerContext> => {
      const id = newId('usr');
      await db.query(
        `INSERT INTO register.members (id, workspace_id, email, role, status, invited_at)
         VALUES ($1, $2, $3, $4, 'active', now())`,
        [id, key.workspaceId, `${id}@example.com`, role],
      );
      return { ...key, keyId: `console:${id}`, actorName: `${id}@example.com` };
    },
  };
}

async function events(workspaceId: string): Promise<string[]> {
  const rows = await db.query<Array<{ event: string }>>(
    `SELECT event FROM register.outbox WHERE workspace_id = $1 ORDER BY created_at, id`,
    [workspaceId],
  );
  return rows.map((row) => row.event).filter((event) => event.startsWith('license.'));
}

describe('licences', () => {
  it('creates, changes, deletes to the bin and restores, each with its event and feed entry', async () => {
    const ws = workspace();
    const made = await ws.create({
      name: '  Figma Org ',
      vendor: 'Figma',
      seats: 10,
      expires_on: '2027-06-30',
      cost: '4500.00',
      product_key: 'FIG-1234-5678',
    });
    expect(made).toMatchObject({
      name: 'Figma Org',
      seats: 10,
      seats_used: 0,
      expires_on: '2027-06-30',
      cost: '4500.00',
      has_product_key: true,
    });
    expect(JSON.stringify(made)).not.toContain('FIG-1234');
    const changed = await ws.update(made.id, { seats: null, cost: null, notes: 'Renewed' });
    expect(changed).toMatchObject({ seats: null, cost: null, notes: 'Renewed' });
    expect(await ws.update(made.id, { notes: 'Renewed' })).toEqual(changed);
    await licenses.delete(ws.key, made.id);
    expect((await domainRejection(licenses.get(ws.key, made.id))).code).toBe('not_found');
    expect((await licenses.list(ws.key, {})).total).toBe(0);
    expect((await licenses.restore(ws.key, made.id)).id).toBe(made.id);
    expect(await events(ws.key.workspaceId)).toEqual([
      'license.created',
      'license.updated',
      'license.deleted',
      'license.updated',
    ]);
    const feed = await db.query<Array<{ action: string }>>(
      `SELECT action FROM register.activity WHERE record_id = $1 ORDER BY at, id`,
      [made.id],
    );
    expect(feed.map((entry) => entry.action)).toEqual([
      'created',
      'updated',
      'deleted',
      'restored',
    ]);
  });

  it('stores the product key encrypted and reveals it to admins and write keys only, in the feed', async () => {
    const ws = workspace();
    const made = await ws.create({ name: 'Office', product_key: 'ABCDE-FGHIJ' });
    const [row] = await db.query<Array<{ product_key: string }>>(
      `SELECT product_key FROM register.licenses WHERE id = $1`,
      [made.id],
    );
    expect(row?.product_key).toMatch(/^v1:dev:/);
    expect(row?.product_key).not.toContain('ABCDE');
    expect(await licenses.revealKey(ws.key, made.id)).toEqual({
      id: made.id,
      product_key: 'ABCDE-FGHIJ',
    });
    const manager = await ws.member('manager');
    const refused = await domainRejection(licenses.revealKey(manager, made.id));
    expect(refused).toMatchObject({ code: 'forbidden' });
    const admin = await ws.member('admin');
    expect((await licenses.revealKey(admin, made.id)).product_key).toBe('ABCDE-FGHIJ');
    const reveals = await db.query<Array<{ actor_name: string | null }>>(
      `SELECT actor_name FROM register.activity WHERE record_id = $1 AND action = 'key_revealed'`,
      [made.id],
    );
    expect(reveals).toHaveLength(2);
    // A key dropped from the list too soon: a 409 naming it, not a 500.
    const rotated = new LicensesService(
      reads,
      writes,
      writer,
      activity,
      new LicenseKeyCipher({ LICENSE_KEY_SECRETS: `k2:${randomBytes(32).toString('base64')}` }),
    );
    const lost = await domainRejection(rotated.revealKey(ws.key, made.id));
    expect(lost.code).toBe('conflict');
    expect(lost.message).toMatch(/encrypted with key dev/);
  });

  it('gives exactly 2 of 20 concurrent assigns when 2 seats are left, the rest a 409 naming the count', async () => {
    const ws = workspace();
    const made = await ws.create({ name: 'Sketch', seats: 3 });
    const first = await ws.person('First');
    await ws.assign(made.id, { person_id: first.id });
    const crowd = await Promise.all(Array.from({ length: 20 }, (_, i) => ws.person(`Person ${i}`)));
    const answers = await Promise.allSettled(
      crowd.map((person) => ws.assign(made.id, { person_id: person.id })),
    );
    const won = answers.filter((answer) => answer.status === 'fulfilled');
    const lost = answers.filter(
      (answer): answer is PromiseRejectedResult => answer.status === 'rejected',
    );
    expect(won).toHaveLength(2);
    expect(lost).toHaveLength(18);
    for (const refusal of lost) {
      expect(String((refusal.reason as Error).message)).toBe(
        `Licence Sketch (${made.id}) has all 3 seats in use; release one or raise seats first`,
      );
    }
    expect((await licenses.get(ws.key, made.id)).seats_used).toBe(3);
    expect((await licenses.seats(ws.key, made.id)).length).toBe(3);
  });

  it('assigns to a person or an asset once each, releases, and refuses what it cannot', async () => {
    const ws = workspace();
    const made = await ws.create({ name: 'Windows', seats: 5 });
    const ada = await ws.person('Ada');
    const laptop = await ws.asset('Laptop');
    const toAda = await ws.assign(made.id, { person_id: ada.id });
    expect(toAda).toMatchObject({ person: { id: ada.id, name: 'Ada' }, asset: null });
    const toLaptop = await ws.assign(made.id, { asset_id: laptop.id });
    expect(toLaptop.asset).toMatchObject({ id: laptop.id, name: 'Laptop' });
    const twice = await domainRejection(ws.assign(made.id, { person_id: ada.id }));
    expect(twice.message).toMatch(/Ada .* already holds a seat of licence Windows/);
    const both = await domainRejection(
      ws.assign(made.id, { person_id: ada.id, asset_id: laptop.id }),
    );
    expect([both.code, both.message]).toEqual([
      'invalid_input',
      'Send person_id or asset_id, not both',
    ]);
    const neither = await domainRejection(ws.assign(made.id, {}));
    expect(neither.message).toMatch(/Send person_id or asset_id/);
    const stranger = await domainRejection(ws.assign(made.id, { person_id: newId('per') }));
    expect(stranger.message).toMatch(/^person_id: person per_.* not found$/);
    const lower = await domainRejection(ws.update(made.id, { seats: 1 }));
    expect(lower).toMatchObject({ code: 'conflict' });
    expect(lower.message).toMatch(/has 2 seats in use; release 1 before lowering it to 1/);
    const released = await licenses.releaseSeat(ws.key, made.id, toAda.id);
    expect(released.id).toBe(toAda.id);
    expect((await licenses.get(ws.key, made.id)).seats_used).toBe(1);
    expect((await domainRejection(licenses.releaseSeat(ws.key, made.id, toAda.id))).code).toBe(
      'not_found',
    );
    const payloads = await db.query<Array<{ event: string; data: { seats_used: number } }>>(
      `SELECT event, data FROM register.outbox
        WHERE workspace_id = $1 AND event LIKE 'license.seat_%' ORDER BY created_at, id`,
      [ws.key.workspaceId],
    );
    expect(payloads.map((row) => [row.event, row.data.seats_used])).toEqual([
      ['license.seat_assigned', 1],
      ['license.seat_assigned', 2],
      ['license.seat_released', 1],
    ]);
  });

  it('keeps workspaces apart', async () => {
    const mine = workspace();
    const theirs = workspace();
    const made = await mine.create({ name: 'Mine' });
    expect((await domainRejection(licenses.get(theirs.key, made.id))).code).toBe('not_found');
    const person = await theirs.person('Other');
    expect((await domainRejection(theirs.assign(made.id, { person_id: person.id }))).code).toBe(
      'not_found',
    );
  });

  it('releases every seat of a person offboarded with release_licenses, one event each', async () => {
    const ws = workspace();
    const [one, two] = [
      await ws.create({ name: 'One', seats: 2 }),
      await ws.create({ name: 'Two' }),
    ];
    const [ada, bob] = [await ws.person('Ada'), await ws.person('Bob')];
    await ws.assign(one.id, { person_id: ada.id });
    await ws.assign(two.id, { person_id: ada.id });
    await ws.assign(one.id, { person_id: bob.id });
    const offboard = async (id: string, body: ClientBody<UpdatePersonInput>) =>
      people.update(ws.key, id, await received(UpdatePersonInput, body));
    const misplaced = await domainRejection(offboard(ada.id, { release_licenses: true }));
    expect([misplaced.code, misplaced.message]).toEqual([
      'invalid_input',
      'release_licenses goes with status: inactive (it releases the seats of an offboarding)',
    ]);
    // Without the flag the seats stay with the inactive person.
    await offboard(bob.id, { status: 'inactive' });
    expect((await licenses.seats(ws.key, one.id)).map((seat) => seat.person?.name)).toEqual([
      'Ada',
      'Bob',
    ]);
    await offboard(ada.id, { status: 'inactive', release_licenses: true });
    expect((await licenses.seats(ws.key, one.id)).map((seat) => seat.person?.name)).toEqual([
      'Bob',
    ]);
    expect(await licenses.seats(ws.key, two.id)).toEqual([]);
    const rows = await db.query<Array<{ event: string }>>(
      `SELECT event FROM register.outbox WHERE workspace_id = $1
          AND (event = 'employee.offboarded' OR event = 'license.seat_released')
          AND data::text LIKE $2
        ORDER BY created_at, id`,
      [ws.key.workspaceId, `%${ada.id}%`],
    );
    expect(rows.map((row) => row.event).sort()).toEqual([
      'employee.offboarded',
      'license.seat_released',
      'license.seat_released',
    ]);
  });

  it('lists seats on their holders, and releases them on offboarding by the workspace default', async () => {
    const ws = workspace();
    const settings = new LicenseSettingsService(
      new ReadTransactions(db),
      new WriteTransactions(db),
    );
    const licence = await ws.create({ name: 'Default release' });
    const [cy, di] = [await ws.person('Cy'), await ws.person('Di')];
    const laptop = await ws.asset('Laptop');
    const seat = await ws.assign(licence.id, { person_id: cy.id });
    await ws.assign(licence.id, { person_id: di.id });
    await ws.assign(licence.id, { asset_id: laptop.id });
    expect((await people.get(ws.key, cy.id)).seats).toEqual([
      {
        id: seat.id,
        license: { id: licence.id, name: 'Default release' },
        assigned_at: seat.assigned_at,
      },
    ]);
    expect((await assets.get(ws.key, laptop.id)).seats.map((held) => held.license.name)).toEqual([
      'Default release',
    ]);
    expect(await settings.get(ws.key)).toEqual({ release_on_offboard: false, updated_at: null });
    const changed = await settings.update(
      ws.key,
      await received(UpdateLicenseSettingsInput, { release_on_offboard: true }),
    );
    expect(changed.release_on_offboard).toBe(true);
    const offboard = async (id: string, body: ClientBody<UpdatePersonInput>) =>
      people.update(ws.key, id, await received(UpdatePersonInput, body));
    // The default releases when the PATCH does not say; the PATCH's own answer wins.
    expect((await offboard(cy.id, { status: 'inactive' })).seats).toEqual([]);
    expect(
      (await offboard(di.id, { status: 'inactive', release_licenses: false })).seats,
    ).toHaveLength(1);
    expect(
      (await licenses.seats(ws.key, licence.id)).map(
        (held) => held.person?.name ?? held.asset?.name,
      ),
    ).toEqual(['Di', 'Laptop']);
    // A licence in the bin is left off its holders' fetch.
    await licenses.delete(ws.key, licence.id);
    expect((await people.get(ws.key, di.id)).seats).toEqual([]);
    expect((await domainRejection(settings.update(ws.key, {}))).message).toBe(
      'Give at least one field to change: release_on_offboard',
    );
  });
});
