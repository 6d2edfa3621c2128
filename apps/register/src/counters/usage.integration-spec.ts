import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter, type WorkspacePlans } from '@custodian/messaging';
import {
  CreateAssetInput,
  CreatePersonInput,
  DomainError,
  WorkspaceRefInput,
  type CallerContext,
} from '@custodian/contracts';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  testCaller,
  type MigratedDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { AssetBin } from '../assets/asset-bin';
import { AssetsService } from '../assets/assets.service';
import { loadRegisterConfig } from '../config/register-config';
import { registerDataSource } from '../database/data-source';
import { Mailer } from '../mail/mailer';
import { MembersService } from '../members/members.service';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { UsageRpcController } from './usage.rpc-controller';

/**
 * `admin.workspace.usage` on a fresh migrated database: the counts follow the register's own
 * writes (creates, soft deletes, owners), through the handler and the pipe its queue applies.
 */

let store: MigratedDatabase;
let db: DataSource;
let assets: AssetsService;
let people: PeopleService;
let bin: AssetBin;
let members: MembersService;
let mailer: Mailer;
let controller: UsageRpcController;

beforeAll(async () => {
  Logger.overrideLogger(false);
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 4));
  db = store.db;
  const reads = new ReadTransactions(db);
  const writes = new WriteTransactions(db);
  const writer = new OutboxWriter('register');
  const activity = new ActivityLog('register');
  assets = new AssetsService(reads, writes, writer, activity);
  people = new PeopleService(reads, writes, writer, activity);
  bin = new AssetBin(reads, writes, writer, activity, { BIN_RETENTION_DAYS: 30 });
  const config = loadRegisterConfig({ DATABASE_URL: store.database.url });
  mailer = new Mailer(config);
  // Making an owner reads no plan facts (only accepting an invitation does).
  const noPlans = {} as WorkspacePlans;
  members = new MembersService(db, writes, config, mailer, noPlans, writer, reads, activity);
  controller = new UsageRpcController(db);
}, 30_000);

afterAll(async () => {
  await mailer?.onApplicationShutdown();
  await store?.close();
});

/** The message as the admin queue's consumer receives it: through the validation pipe. */
async function usage(message: unknown) {
  return controller.usage(await received(WorkspaceRefInput, message));
}

describe('admin.workspace.usage', () => {
  it('is 0 of each for a workspace the register has counted nothing for', async () => {
    const caller = testCaller();
    expect(await usage({ workspace: caller.workspaceId })).toEqual({
      assets: 0,
      people: 0,
      seats: 0,
    });
    const rows = await db.query<unknown[]>(
      `SELECT 1 FROM register.workspace_counters WHERE workspace_id = $1`,
      [caller.workspaceId],
    );
    expect(rows).toHaveLength(0); // a read, not a lazily created row
  });

  it('counts assets not deleted, people and active members, of that workspace only', async () => {
    const caller: CallerContext = testCaller();
    const other: CallerContext = testCaller();
    const laptop = await assets.create(
      caller,
      await received(CreateAssetInput, { name: 'Laptop' }),
    );
    await assets.create(caller, await received(CreateAssetInput, { name: 'Monitor' }));
    await assets.create(other, await received(CreateAssetInput, { name: 'Elsewhere' }));
    await people.create(
      caller,
      await received(CreatePersonInput, { full_name: 'Ada Lovelace', email: 'ada@usage.example' }),
    );
    await members.createOwner({ workspace: caller.workspaceId, email: 'owner@usage.example' });
    expect(await usage({ workspace: caller.workspaceId })).toEqual({
      assets: 2,
      people: 1,
      seats: 1,
    });

    // A deleted asset frees its slot, so it no longer counts as used.
    await bin.delete(caller, laptop.id);
    expect(await usage({ workspace: caller.workspaceId })).toEqual({
      assets: 1,
      people: 1,
      seats: 1,
    });
    expect(await usage({ workspace: other.workspaceId })).toEqual({
      assets: 1,
      people: 0,
      seats: 0,
    });
  });

  it('refuses a message without a workspace, or with another field, naming the field', async () => {
    const missing = await domainRejection(usage({}));
    expect(missing).toBeInstanceOf(DomainError);
    expect([missing.code, missing.message]).toEqual([
      'invalid_input',
      expect.stringContaining('workspace must be a string') as string,
    ]);
    const extra = await domainRejection(usage({ workspace: 'wsp_x', plan: 'pro' }));
    expect([extra.code, extra.message]).toEqual(['invalid_input', 'unknown field plan']);
  });
});
