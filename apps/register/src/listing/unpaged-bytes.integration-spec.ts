import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter } from '@custodian/messaging';
import {
  CreateAssetInput,
  CreatePersonInput,
  PERSON_STATUSES,
  RawJson,
  UpdateAssetInput,
  UpdatePersonInput,
  isListUnchanged,
  type AssetSummary,
  type CallerContext,
  type ListReply,
  type RawQuery,
} from '@custodian/contracts';
import {
  createMigratedDatabase,
  received,
  testCaller,
  unpagedArray,
  type MigratedDatabase,
} from '@custodian/testing';
import { parseAssetListQuery } from '../assets/asset-list-query';
import { AssetsService } from '../assets/assets.service';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { parseListQuery } from './list-query';

/**
 * The bare array's tag (docs/adr/0014, "The unpaged array"): a list request that quotes the
 * tag of bytes still current is answered ListUnchanged, and every change of anything those
 * bytes show (whoever makes it: a service, or SQL straight to a table) makes the tag stale.
 */

let store: MigratedDatabase;
let assets: AssetsService;
let people: PeopleService;
const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 4));
  const reads = new ReadTransactions(store.db);
  const writes = new WriteTransactions(store.db);
  assets = new AssetsService(reads, writes, writer, activity);
  people = new PeopleService(reads, writes, writer, activity);
});

afterAll(() => store?.close());

const listAssets = (caller: CallerContext, known?: string, query: RawQuery = {}) =>
  assets.list(caller, parseAssetListQuery(query), known);
const listPeople = (caller: CallerContext, known?: string) =>
  people.list(caller, parseListQuery({}, PERSON_STATUSES), known);

function tagOf(reply: ListReply<unknown>): string {
  if (!(reply instanceof RawJson) || reply.tag === undefined) {
    throw new Error('expected the bare array with a tag');
  }
  return reply.tag;
}

/** The tag now, and whether `known` is still current. */
async function assetTag(caller: CallerContext, known: string): Promise<string> {
  const reply = await listAssets(caller, known);
  return isListUnchanged(reply) ? 'unchanged' : tagOf(reply);
}

it('answers unchanged to the tag of bytes still current, and the bytes to any other', async () => {
  const me = testCaller();
  await assets.create(me, await received(CreateAssetInput, { name: 'Drill' }));
  const first = await listAssets(me);
  const tag = tagOf(first);
  expect(unpagedArray(first).map((a) => a.name)).toEqual(['Drill']);

  expect(await listAssets(me, tag)).toEqual({ unchanged: tag });
  // The same list read again carries the same tag, byte for byte the same array.
  const again = await listAssets(me);
  expect(tagOf(again)).toBe(tag);
  expect((again as RawJson).bytes.equals((first as RawJson).bytes)).toBe(true);

  // A tag of another build (another format), or made up, gets the bytes.
  const [, version] = tag.split('.');
  expect(await assetTag(me, `0123456789ab.${version}`)).toBe(tag);
  expect(await assetTag(me, 'nonsense')).toBe(tag);
  // A page ignores it.
  const page = await listAssets(me, tag, { page: '1' });
  expect(page).toMatchObject({ total: 1, page: 1 });
});

it('makes the tag stale on every change the bytes show, and only for that workspace', async () => {
  const me = testCaller();
  const other = testCaller();
  const ada = await people.create(
    me,
    await received(CreatePersonInput, { full_name: 'Ada', email: 'ada@example.com' }),
  );
  const drill = await assets.create(me, await received(CreateAssetInput, { name: 'Drill' }));
  let tag = tagOf(await listAssets(me));
  const otherTag = tagOf(await listAssets(other));

  /** After `change`, the old tag is stale and the new bytes show `expected`. */
  const staleAfter = async (change: () => Promise<unknown>, expected: Partial<AssetSummary>) => {
    await change();
    const next = await assetTag(me, tag);
    expect(next).not.toBe('unchanged');
    const reply = await listAssets(me);
    expect(unpagedArray(reply)[0]).toMatchObject(expected);
    tag = next;
  };

  // A field no list filters on (the list version ignores it; the bytes show it).
  await staleAfter(
    async () => assets.update(me, drill.id, await received(UpdateAssetInput, { model: 'X-100' })),
    { model: 'X-100' },
  );
  await staleAfter(
    async () =>
      assets.update(me, drill.id, await received(UpdateAssetInput, { assigned_to_id: ada.id })),
    { assigned_to: { id: ada.id, name: 'Ada' } },
  );
  // The holder's name, a row of another table.
  await staleAfter(
    async () =>
      people.update(me, ada.id, await received(UpdatePersonInput, { full_name: 'Ada L.' })),
    { assigned_to: { id: ada.id, name: 'Ada L.' } },
  );
  // The category's name, by SQL straight to the table: the triggers see every writer.
  await staleAfter(
    async () =>
      assets.update(me, drill.id, await received(UpdateAssetInput, { category: 'Tools' })),
    { category: { name: 'Tools' } },
  );
  await staleAfter(
    () =>
      store.db.query(
        `UPDATE register.categories SET name = 'Power tools' WHERE workspace_id = $1`,
        [me.workspaceId],
      ),
    { category: { name: 'Power tools' } },
  );
  await staleAfter(
    async () => assets.create(me, await received(CreateAssetInput, { name: 'Saw' })),
    { name: 'Drill' },
  );
  await staleAfter(() => store.db.query(`DELETE FROM register.assets WHERE id = $1`, [drill.id]), {
    name: 'Saw',
  });

  // What does not show in the asset array leaves its tag current.
  await people.update(me, ada.id, await received(UpdatePersonInput, { status: 'inactive' }));
  expect(await assetTag(me, tag)).toBe('unchanged');
  // Nothing of this touched the other workspace.
  expect(await listAssets(other, otherTag)).toEqual({ unchanged: otherTag });
});

it('tags the people array the same way', async () => {
  const me = testCaller();
  const ada = await people.create(
    me,
    await received(CreatePersonInput, { full_name: 'Ada', email: 'ada@example.com' }),
  );
  const tag = tagOf(await listPeople(me));
  expect(await listPeople(me, tag)).toEqual({ unchanged: tag });

  await people.update(me, ada.id, await received(UpdatePersonInput, { employee_number: 'E-7' }));
  const reply = await listPeople(me, tag);
  expect(isListUnchanged(reply)).toBe(false);
  expect(unpagedArray(reply)[0]).toMatchObject({
    employee_number: 'E-7',
  });
  expect(tagOf(reply)).not.toBe(tag);
});

it('tags a workspace that has no record yet, and its first record makes that tag stale', async () => {
  const me = testCaller();
  const empty = tagOf(await listAssets(me));
  expect(await listAssets(me, empty)).toEqual({ unchanged: empty });
  await assets.create(me, await received(CreateAssetInput, { name: 'Drill' }));
  expect(await assetTag(me, empty)).not.toBe('unchanged');
});
