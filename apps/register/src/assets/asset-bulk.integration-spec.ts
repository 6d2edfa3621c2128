import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter, runInRpcRequest } from '@custodian/messaging';
import {
  BulkAssetInput,
  type BulkAssetReply,
  type CallerContext,
  CreateAssetInput,
  CreatePersonInput,
  UpdatePersonInput,
} from '@custodian/contracts';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  testCaller,
  type ClientBody,
  type MigratedDatabase,
} from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { AssetBin } from './asset-bin';
import { AssetBulk } from './asset-bulk';
import { AssetsService } from './assets.service';

/** POST /assets/bulk's work, on a fresh migrated database: chunks, results, events, races. */

let store: MigratedDatabase;
let db: DataSource;
let assets: AssetsService;
let people: PeopleService;
let bin: AssetBin;
let bulk: AssetBulk;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 8));
  db = store.db;
  const reads = new ReadTransactions(db);
  const writes = new WriteTransactions(db);
  assets = new AssetsService(reads, writes, writer, activity);
  people = new PeopleService(reads, writes, writer, activity);
  bin = new AssetBin(reads, writes, writer, activity, { BIN_RETENTION_DAYS: 30 });
  bulk = new AssetBulk(writes, assets, bin);
}, 30_000);

afterAll(() => store?.close());

function workspace() {
  const caller: CallerContext = testCaller({ limits: { assets: null } });
  return {
    caller,
    id: caller.workspaceId,
    assets: async (count: number, prefix = 'Laptop') => {
      const ids: string[] = [];
      for (let n = 0; n < count; n += 1) {
        const body = await received(CreateAssetInput, { name: `${prefix} ${n}` });
        ids.push((await assets.create(caller, body)).id);
      }
      return ids;
    },
    person: async (full_name: string) =>
      people.create(
        caller,
        await received(CreatePersonInput, {
          full_name,
          email: `${full_name.replace(/\W/g, '')}.${Date.now()}@example.com`,
        }),
      ),
    bulk: async (body: ClientBody<BulkAssetInput>) =>
      bulk.apply(caller, await received(BulkAssetInput, body)),
  };
}

function eventCounts(workspaceId: string): Promise<Record<string, number>> {
  return db
    .query<Array<{ event: string; n: number }>>(
      `SELECT event, count(*)::int AS n FROM register.outbox WHERE workspace_id = $1
        GROUP BY event`,
      [workspaceId],
    )
    .then((rows) => Object.fromEntries(rows.map((row) => [row.event, row.n])));
}

/** asset.updated events per asset id: each changed asset must have exactly one. */
async function updatedPerAsset(workspaceId: string): Promise<Map<string, number>> {
  const rows = await db.query<Array<{ id: string; n: number }>>(
    `SELECT data->>'id' AS id, count(*)::int AS n FROM register.outbox
      WHERE workspace_id = $1 AND event = 'asset.updated' GROUP BY 1`,
    [workspaceId],
  );
  return new Map(rows.map((row) => [row.id, row.n]));
}

function statuses(workspaceId: string): Promise<Record<string, string>> {
  return db
    .query<Array<{ id: string; status: string }>>(
      `SELECT id, status FROM register.assets WHERE workspace_id = $1`,
      [workspaceId],
    )
    .then((rows) => Object.fromEntries(rows.map((row) => [row.id, row.status])));
}

describe('bulk changes of assets', () => {
  it('refuses a body wrong as a whole with a 400 naming the field, before writing anything', async () => {
    const ws = workspace();
    const id = (await ws.assets(1))[0]!;
    const person = await ws.person('Ada Lovelace');
    const cases: Array<[ClientBody<BulkAssetInput>, RegExp]> = [
      [{ ids: Array.from({ length: 1001 }, (_, n) => `ast_${n}`), action: 'check_in' }, /^ids/],
      [{ ids: [id, id], action: 'check_in' }, /^ids must name each asset once/],
      [{ ids: [], action: 'check_in' }, /^ids/],
      [{ ids: [id], action: 'explode' }, /^action/],
      [{ ids: [id], action: 'update' }, /give exactly one of them/],
      [
        { ids: [id], action: 'update', status: 'retired', category_id: null },
        /got status, category_id/,
      ],
      [{ ids: [id], action: 'update', status: 'gone' }, /^status must be one of/],
      [
        { ids: [id], action: 'check_in', status: 'retired' },
        /^status: not taken with action check_in/,
      ],
      [{ ids: [id], action: 'check_out' }, /^person_id is required/],
      [
        { ids: [id], action: 'check_out', person_id: 'per_nobody' },
        /^person_id per_nobody is not a person/,
      ],
      [
        { ids: [id], action: 'check_out', person_id: person.id, due_at: '2020-01-01T00:00:00Z' },
        /^due_at 2020-01-01T00:00:00.000Z is not in the future$/,
      ],
      [{ ids: [id], action: 'update', location_id: 'loc_nowhere' }, /^location_id: loc_nowhere/],
      [{ ids: [id], action: 'update', category_id: 'cat_none' }, /^category_id: cat_none/],
    ];
    for (const [body, message] of cases) {
      const error = await domainRejection(ws.bulk(body));
      expect({ body, code: error.code, message: error.message }).toEqual({
        body,
        code: 'invalid_input',
        message: expect.stringMatching(message) as string,
      });
    }
    await people.update(
      ws.caller,
      person.id,
      await received(UpdatePersonInput, { status: 'inactive' }),
    );
    const inactive = await domainRejection(
      ws.bulk({ ids: [id], action: 'check_out', person_id: person.id }),
    );
    expect(inactive.message).toMatch(/^person_id per_\w+ is inactive/);
    // Only the creates and the person's events: nothing of a bulk change.
    expect(await eventCounts(ws.id)).toEqual({
      'asset.created': 1,
      'employee.created': 1,
      'employee.offboarded': 1,
    });
  });

  it('applies 250 assets in chunks: a result per id in the order sent, one event per changed asset', async () => {
    const ws = workspace();
    const ids = await ws.assets(250);
    const other = workspace();
    const foreign = (await other.assets(1))[0]!;
    const binned = (await ws.assets(1, 'Old'))[0]!;
    await bin.delete(ws.caller, binned);
    // Five already retired: unchanged, no event.
    await ws.bulk({ ids: ids.slice(0, 5), action: 'update', status: 'retired' });
    const before = await eventCounts(ws.id);

    const sent = [...ids].reverse().concat(['ast_nosuchasset', foreign, binned]);
    const reply = await ws.bulk({ ids: sent, action: 'update', status: 'retired' });

    expect(reply.results.map((result) => result.id)).toEqual(sent);
    expect(reply.counts).toEqual({ updated: 245, unchanged: 5, not_found: 2, refused: 1 });
    const byId = new Map(reply.results.map((result) => [result.id, result]));
    expect(byId.get(ids[0]!)).toEqual({ id: ids[0]!, outcome: 'unchanged' });
    expect(byId.get(ids[100]!)).toEqual({ id: ids[100]!, outcome: 'updated' });
    expect(byId.get(foreign)).toEqual({
      id: foreign,
      outcome: 'not_found',
      status: 404,
      message: `Asset ${foreign} not found`,
    });
    expect(byId.get(binned)).toEqual({
      id: binned,
      outcome: 'refused',
      status: 409,
      message: `Asset ${binned} is in the bin; restore it before changing it`,
    });
    expect(Object.values(await statuses(ws.id)).every((status) => status === 'retired')).toBe(true);
    expect((await statuses(other.id))[foreign]).toBe('active');
    const after = await eventCounts(ws.id);
    expect(after['asset.updated']! - before['asset.updated']!).toBe(245);
    expect([...(await updatedPerAsset(ws.id)).values()].every((n) => n === 1)).toBe(true);
    // The feed entries of a PATCH, one per changed asset.
    const [feed] = await db.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM register.activity
        WHERE workspace_id = $1 AND action = 'updated' AND record_type = 'asset'`,
      [ws.id],
    );
    expect(feed!.n).toBe(250);

    // The same request again changes nothing.
    const again = await ws.bulk({ ids: sent, action: 'update', status: 'retired' });
    expect(again.counts).toEqual({ updated: 0, unchanged: 250, not_found: 2, refused: 1 });
    expect(await eventCounts(ws.id)).toEqual(after);
  });

  it('moves to a place by name and to a category, unchanged where they already are', async () => {
    const ws = workspace();
    const ids = await ws.assets(3);
    const moved = await ws.bulk({ ids, action: 'update', location: 'Store room' });
    expect(moved.counts.updated).toBe(3);
    const [place] = await db.query<Array<{ location_id: string }>>(
      `SELECT DISTINCT location_id FROM register.assets WHERE workspace_id = $1`,
      [ws.id],
    );
    const byId = await ws.bulk({ ids, action: 'update', location_id: place!.location_id });
    expect(byId.counts).toMatchObject({ updated: 0, unchanged: 3 });
    const cleared = await ws.bulk({ ids: ids.slice(0, 1), action: 'update', location_id: null });
    expect(cleared.counts.updated).toBe(1);
    const categorised = await ws.bulk({ ids, action: 'update', category: 'Laptops' });
    expect(categorised.counts.updated).toBe(3);
    expect((await eventCounts(ws.id))['asset.updated']).toBe(7);
  });

  it('checks out and in with the single route’s events, and refuses what the single routes refuse', async () => {
    const ws = workspace();
    const ids = await ws.assets(5);
    const ada = await ws.person('Ada Lovelace');
    const grace = await ws.person('Grace Hopper');
    await ws.bulk({ ids: [ids[0]!], action: 'check_out', person_id: grace.id });

    const due = new Date(Date.now() + 86_400_000).toISOString();
    const out = await ws.bulk({ ids, action: 'check_out', person_id: ada.id, due_at: due });
    expect(out.results[0]).toEqual({
      id: ids[0]!,
      outcome: 'refused',
      status: 409,
      message: `Asset ${ids[0]!} is checked out to Grace Hopper; check it in before checking it out to someone else`,
    });
    expect(out.counts).toEqual({ updated: 4, unchanged: 0, not_found: 0, refused: 1 });
    const events = await eventCounts(ws.id);
    expect(events['assignment.checked_out']).toBe(5);
    const [held] = await db.query<Array<{ n: number; due: number }>>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE custody_due_at = $3)::int AS due
         FROM register.assets WHERE workspace_id = $1 AND assigned_to_id = $2`,
      [ws.id, ada.id, due],
    );
    expect(held).toEqual({ n: 4, due: 4 });
    // Their overdue notices are armed, as a PATCH arms them.
    const [notices] = await db.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM register.due_notices
        WHERE workspace_id = $1 AND kind = 'assignment.overdue' AND fired_at IS NULL
          AND cancelled_at IS NULL`,
      [ws.id],
    );
    expect(notices!.n).toBe(4);

    // Deleting checked-out assets is refused with the bin's own message.
    const deleted = await ws.bulk({ ids: ids.slice(0, 2), action: 'delete' });
    expect(deleted.results[1]).toEqual({
      id: ids[1]!,
      outcome: 'refused',
      status: 409,
      message: `Asset ${ids[1]!} is checked out to Ada Lovelace; check it in before deleting it`,
    });

    const back = await ws.bulk({ ids, action: 'check_in' });
    expect(back.counts).toEqual({ updated: 5, unchanged: 0, not_found: 0, refused: 0 });
    expect((await eventCounts(ws.id))['assignment.checked_in']).toBe(5);
    const twice = await ws.bulk({ ids, action: 'check_in' });
    expect(twice.counts.unchanged).toBe(5);

    const binned = await ws.bulk({ ids, action: 'delete' });
    expect(binned.counts.updated).toBe(5);
    const final = await eventCounts(ws.id);
    expect(final['asset.deleted']).toBe(5);
    const [counter] = await db.query<Array<{ asset_count: number }>>(
      `SELECT asset_count FROM register.workspace_counters WHERE workspace_id = $1`,
      [ws.id],
    );
    expect(counter!.asset_count).toBe(0);
    const rebinned = await ws.bulk({ ids, action: 'delete' });
    expect(rebinned.counts.unchanged).toBe(5);
  });

  it('runs two bulk calls over overlapping ids at once without a deadlock or a change applied twice', async () => {
    const ws = workspace();
    const ids = await ws.assets(300);
    const ada = await ws.person('Ada Lovelace');
    const grace = await ws.person('Grace Hopper');
    // Overlapping 200 ids, sent in opposite orders, to two different people.
    const first = ids.slice(0, 250);
    const second = ids.slice(50).reverse();
    const [a, b] = await Promise.all([
      ws.bulk({ ids: first, action: 'check_out', person_id: ada.id }),
      ws.bulk({ ids: second, action: 'check_out', person_id: grace.id }),
    ]);
    const outcomes = (reply: BulkAssetReply) =>
      new Map(reply.results.map((result) => [result.id, result.outcome]));
    const [ofA, ofB] = [outcomes(a), outcomes(b)];
    for (const id of ids.slice(50, 250)) {
      // Each overlapping asset went to exactly one of them; the other was refused.
      expect([ofA.get(id), ofB.get(id)].sort()).toEqual(['refused', 'updated']);
    }
    expect(a.counts.updated + b.counts.updated).toBe(300);
    const events = await eventCounts(ws.id);
    expect(events['assignment.checked_out']).toBe(300);
    expect(events['asset.updated']).toBe(300);
    expect([...(await updatedPerAsset(ws.id)).values()].every((n) => n === 1)).toBe(true);
  }, 60_000);

  it('applies each chunk once per request: a redelivered request answers from the stored chunks', async () => {
    const ws = workspace();
    const ids = await ws.assets(150);
    const body = await received(BulkAssetInput, { ids, action: 'update', status: 'maintenance' });
    const request = { id: `req_bulk_${Date.now()}` };
    const first = await runInRpcRequest(request, () => bulk.apply(ws.caller, body));
    expect(first.counts.updated).toBe(150);
    const replayed = await runInRpcRequest(request, () => bulk.apply(ws.caller, body));
    // The first answer again, not "unchanged": the chunks' stored results.
    expect(replayed).toEqual(first);
    expect((await eventCounts(ws.id))['asset.updated']).toBe(150);
    const [rows] = await db.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM register.applied_requests WHERE id LIKE $1`,
      [`${request.id}:bulk:%`],
    );
    expect(rows!.n).toBe(2);
  });
});
