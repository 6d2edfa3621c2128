import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter } from '@custodian/messaging';
import { CreateAssetInput, CreateCustomFieldInput, UpdateAssetInput } from '@custodian/contracts';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  type ClientBody,
  testCaller,
  type MigratedDatabase,
} from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { AssetsService } from '../assets/assets.service';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { CustomFieldsService } from './custom-fields.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';

/** Custom-field definitions and the values assets store under them, on a migrated database. */

let store: MigratedDatabase;
let db: DataSource;
let fields: CustomFieldsService;
let assets: AssetsService;

/** Events go to register.outbox, as the app's OutboxModule writes them. */
const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 4));
  db = store.db;
  fields = new CustomFieldsService(db);
  assets = new AssetsService(new ReadTransactions(db), new WriteTransactions(db), writer, activity);
}, 30_000);

afterAll(() => store?.close());

/** The one place this file calls the services, with bodies as their consumers receive them. */
function workspace() {
  const caller = testCaller();
  return {
    id: caller.workspaceId,
    define: async (body: Omit<ClientBody<CreateCustomFieldInput>, 'workspace'>) =>
      fields.create(
        await received(CreateCustomFieldInput, { ...body, workspace: caller.workspaceId }),
      ),
    createAsset: async (body: ClientBody<CreateAssetInput>) =>
      assets.create(caller, await received(CreateAssetInput, body)),
    updateAsset: async (id: string, body: ClientBody<UpdateAssetInput>) =>
      assets.update(caller, id, await received(UpdateAssetInput, body)),
  };
}

async function storedValues(assetId: string): Promise<unknown> {
  const rows = await db.query<Array<{ custom_fields: unknown }>>(
    `SELECT custom_fields FROM register.assets WHERE id = $1`,
    [assetId],
  );
  return rows[0]!.custom_fields;
}

async function assetCount(workspaceId: string): Promise<number> {
  const rows = await db.query<Array<{ n: number }>>(
    `SELECT count(*)::int AS n FROM register.assets WHERE workspace_id = $1`,
    [workspaceId],
  );
  return rows[0]!.n;
}

describe('custom field definitions', () => {
  it('stores a definition as the CLI sends it, and refuses a second one with the same key', async () => {
    const ws = workspace();
    const defined = await ws.define({
      key: 'colour',
      label: ' Colour ',
      type: 'select',
      options: 'red, green,,blue',
      required: 'true',
    });
    expect(defined).toMatchObject({
      workspace_id: ws.id,
      key: 'colour',
      label: 'Colour',
      type: 'select',
      options: ['red', 'green', 'blue'],
      required: true,
    });
    expect(
      await domainRejection(ws.define({ key: 'colour', label: 'Again', type: 'text' })),
    ).toMatchObject({ code: 'conflict', message: 'custom field colour already exists' });
    // Keys are per workspace.
    expect((await workspace().define({ key: 'colour', label: 'Colour', type: 'text' })).key).toBe(
      'colour',
    );
    const rows = await db.query<unknown[]>(
      `SELECT key FROM register.custom_fields WHERE workspace_id = $1`,
      [ws.id],
    );
    expect(rows).toEqual([{ key: 'colour' }]);
  });

  it('refuses select without options and options on another type, storing nothing', async () => {
    const ws = workspace();
    expect(
      await domainRejection(ws.define({ key: 'size', label: 'Size', type: 'select' })),
    ).toMatchObject({ code: 'invalid_input', message: 'options are required for a select field' });
    expect(
      await domainRejection(ws.define({ key: 'note', label: 'Note', type: 'text', options: 'a' })),
    ).toMatchObject({ code: 'invalid_input', message: 'options are only for select fields' });
    expect(
      await db.query(`SELECT 1 FROM register.custom_fields WHERE workspace_id = $1`, [ws.id]),
    ).toEqual([]);
  });

  it("lists a workspace's definitions in the order they were made, and no other's", async () => {
    const ws = workspace();
    await ws.define({ key: 'zone', label: 'Zone', type: 'text' });
    await ws.define({ key: 'active_from', label: 'Active from', type: 'date', required: true });
    await workspace().define({ key: 'other', label: 'Other', type: 'text' });
    const listed = await fields.list(ws.id);
    expect(listed.map(({ key, type, required }) => [key, type, required])).toEqual([
      ['zone', 'text', false],
      ['active_from', 'date', true],
    ]);
    expect(await fields.list('wsp_none')).toEqual([]);
  });
});

describe('custom field values on assets', () => {
  it('stores typed values, merges a PATCH, removes a key given null', async () => {
    const ws = workspace();
    await ws.define({ key: 'cost', label: 'Cost', type: 'number' });
    await ws.define({ key: 'bought', label: 'Bought', type: 'date' });
    await ws.define({ key: 'leased', label: 'Leased', type: 'boolean' });
    const asset = await ws.createAsset({
      name: 'Laptop',
      custom_fields: { cost: 1299.5, bought: '2024-02-29', leased: false },
    });
    expect(await storedValues(asset.id)).toEqual({
      cost: 1299.5,
      bought: '2024-02-29',
      leased: false,
    });
    const patched = await ws.updateAsset(asset.id, { custom_fields: { cost: 999, leased: null } });
    expect(patched.custom_fields).toEqual({ cost: 999, bought: '2024-02-29' });
    expect(await storedValues(asset.id)).toEqual({ cost: 999, bought: '2024-02-29' });
    await ws.updateAsset(asset.id, { custom_fields: null });
    expect(await storedValues(asset.id)).toEqual({});
  });

  it('refuses a missing required field, a wrong type and an unknown key, writing nothing', async () => {
    const ws = workspace();
    await ws.define({
      key: 'colour',
      label: 'Colour',
      type: 'select',
      options: 'red,blue',
      required: true,
    });
    await ws.define({ key: 'bought', label: 'Bought', type: 'date' });
    const refusals: Array<[Record<string, unknown> | undefined, string]> = [
      [undefined, 'custom_fields.colour is required'],
      [{ colour: 'green' }, 'custom_fields.colour must be one of red, blue'],
      [
        { colour: 'red', bought: '2023-02-29' },
        'custom_fields.bought must be a date as YYYY-MM-DD',
      ],
      [
        { colour: 'red', owner: 'x' },
        'custom_fields.owner is not a custom field of this workspace',
      ],
    ];
    for (const [values, message] of refusals) {
      expect(
        await domainRejection(ws.createAsset({ name: 'Refused', custom_fields: values })),
      ).toMatchObject({ code: 'invalid_input', message });
    }
    expect(await assetCount(ws.id)).toBe(0);
    const asset = await ws.createAsset({ name: 'Kept', custom_fields: { colour: 'red' } });
    expect(
      await domainRejection(ws.updateAsset(asset.id, { custom_fields: { colour: null } })),
    ).toMatchObject({ code: 'invalid_input', message: 'custom_fields.colour is required' });
    expect(await storedValues(asset.id)).toEqual({ colour: 'red' });
    // Another workspace's definitions do not apply here.
    expect(
      await domainRejection(
        workspace().createAsset({ name: 'X', custom_fields: { colour: 'red' } }),
      ),
    ).toMatchObject({ message: 'custom_fields.colour is not a custom field of this workspace' });
  });
});
