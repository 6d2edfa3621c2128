import type { CallerContext, Import } from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { createMigratedDatabase, testCaller, type MigratedDatabase } from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { AssetsService } from '../assets/assets.service';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { ImportJobs, type ImportJobsConfig } from './import-jobs';
import { ImportPruner } from './import-pruner';
import { ImportsService } from './imports.service';

/**
 * Imports on a fresh migrated database, their jobs run when the test says: the dry run writes
 * nothing, a step that fails half-way (Postgres refusing a row for no fault of the data, as a
 * crash would cut it) is rolled back whole and the next run applies every row once, and the
 * events and feed entries of its rows name the import.
 */
class ManualJobs extends ImportJobs {
  override kick(): void {
    // The test runs the jobs itself.
  }
}

let store: MigratedDatabase;
let db: DataSource;
let imports: ImportsService;
let jobs: ManualJobs;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');
const CONFIG: ImportJobsConfig = {
  IMPORT_PLAN_BATCH_SIZE: 3,
  IMPORT_WRITE_BATCH_SIZE: 4,
  IMPORT_JOBS_POLL_MS: 60_000,
  IMPORT_JOB_STATEMENT_TIMEOUT_MS: 60_000,
};

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 8));
  db = store.db;
  const reads = new ReadTransactions(db);
  const writes = new WriteTransactions(db);
  const assets = new AssetsService(reads, writes, writer, activity);
  const people = new PeopleService(reads, writes, writer, activity);
  jobs = new ManualJobs(db, assets, people, CONFIG);
  imports = new ImportsService(reads, writes, jobs);
}, 30_000);

afterAll(() => store?.close());

/** An import of `rows` (cells under `columns`), uploaded in batches of 5 and sealed. */
async function uploaded(
  caller: CallerContext,
  columns: string[],
  rows: string[][],
  dryRun = true,
): Promise<Import> {
  const created = await imports.create(caller, {
    caller,
    type: 'assets',
    dry_run: dryRun,
    columns,
  });
  for (let first = 0; first < rows.length; first += 5) {
    await imports.append(caller, {
      caller,
      id: created.id,
      first_row: first + 1,
      rows: rows.slice(first, first + 5),
    });
  }
  return imports.seal(caller, created.id, rows.length);
}

describe('CSV imports', () => {
  it('plans in batches without writing, then applies every row once across a failed step', async () => {
    const caller = testCaller();
    const rows = Array.from({ length: 10 }, (_, i) => [`Asset ${i + 1}`, `T-${i + 1}`]);
    const job = await uploaded(caller, ['name', 'asset_tag'], rows);
    expect(job).toMatchObject({ status: 'planning', rows: 10, progress: { done: 0, total: 10 } });

    // Planning: 3 rows a step; nothing written.
    expect(await jobs.step()).toBe('planned');
    expect((await imports.get(caller, job.id)).progress).toEqual({ done: 3, total: 10 });
    await jobs.runPending();
    const planned = await imports.get(caller, job.id);
    expect(planned).toMatchObject({
      status: 'planned',
      plan: { create: 10, update: 0, refuse: 0 },
    });
    const count = async () =>
      Number(
        (
          await db.query<Array<{ n: number }>>(
            `SELECT count(*)::int AS n FROM register.assets WHERE workspace_id = $1`,
            [caller.workspaceId],
          )
        )[0]?.n,
      );
    expect(await count()).toBe(0);

    // A fault on the 7th row (in the second step of 4): Postgres refuses its insert.
    await db.query(`
      CREATE FUNCTION register.refuse_t7() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.asset_tag = 'T-7' THEN RAISE EXCEPTION 'disk full'; END IF;
        RETURN NEW;
      END $$`);
    await db.query(`CREATE TRIGGER refuse_t7 BEFORE INSERT ON register.assets
      FOR EACH ROW EXECUTE FUNCTION register.refuse_t7()`);
    await imports.start(caller, job.id);
    expect(await jobs.step()).toBe('imported');
    await expect(jobs.step()).rejects.toThrow('disk full');
    // The first step's 4 rows committed; the failed step wrote nothing.
    expect(await count()).toBe(4);
    expect((await imports.get(caller, job.id)).progress).toEqual({ done: 4, total: 10 });

    await db.query(`DROP TRIGGER refuse_t7 ON register.assets`);
    await db.query(`DROP FUNCTION register.refuse_t7()`);
    await jobs.runPending();
    const done = await imports.get(caller, job.id);
    expect(done).toMatchObject({
      status: 'completed',
      results: { created: 10, updated: 0, unchanged: 0, refused: 0 },
    });
    const tags = await db.query<Array<{ asset_tag: string }>>(
      `SELECT asset_tag FROM register.assets WHERE workspace_id = $1 ORDER BY created_at`,
      [caller.workspaceId],
    );
    expect(tags.map((row) => row.asset_tag)).toEqual(rows.map((row) => row[1]));
    // One asset.created each, written under the import's request id; feed entries name it.
    const events = await db.query<Array<{ n: number; named: number }>>(
      `SELECT count(*)::int AS n,
         count(*) FILTER (WHERE context->>'x-request-id' = $2)::int AS named
       FROM register.outbox WHERE workspace_id = $1 AND event = 'asset.created'`,
      [caller.workspaceId, job.id],
    );
    expect(events[0]).toEqual({ n: 10, named: 10 });
    const feed = await db.query<Array<{ related_id: string; n: number }>>(
      `SELECT related_id, count(*)::int AS n FROM register.activity
       WHERE workspace_id = $1 AND record_type = 'asset' GROUP BY related_id`,
      [caller.workspaceId],
    );
    expect(feed).toEqual([{ related_id: job.id, n: 10 }]);
  });

  it('cancels where it is: applied rows stay, the others never are', async () => {
    const caller = testCaller();
    const rows = Array.from({ length: 6 }, (_, i) => [`Tool ${i + 1}`]);
    const job = await uploaded(caller, ['name'], rows, false);
    while ((await imports.get(caller, job.id)).status === 'planning') await jobs.step();
    expect(await jobs.step()).toBe('imported'); // 4 rows
    const cancelled = await imports.cancel(caller, job.id);
    expect(cancelled.status).toBe('cancelled');
    expect(await jobs.runPending()).toBe(0);
    const [{ n }] = await db.query<[{ n: number }]>(
      `SELECT count(*)::int AS n FROM register.assets WHERE workspace_id = $1`,
      [caller.workspaceId],
    );
    expect(n).toBe(4);
    await expect(imports.start(caller, job.id)).rejects.toThrow(
      `import ${job.id} is cancelled; this needs it planned`,
    );
  });

  it('prunes finished imports past the retention with their rows, and uploads left behind', async () => {
    const caller = testCaller();
    const old = await uploaded(caller, ['name'], [['A'], ['B']], false);
    const recent = await uploaded(caller, ['name'], [['C']], false);
    await jobs.runPending();
    const abandoned = await imports.create(caller, {
      caller,
      type: 'assets',
      dry_run: true,
      columns: ['name'],
    });
    await db.query(
      `UPDATE register.imports SET finished_at = now() - interval '31 days' WHERE id = $1`,
      [old.id],
    );
    await db.query(
      `UPDATE register.imports SET updated_at = now() - interval '2 days' WHERE id = $1`,
      [abandoned.id],
    );
    const pruner = new ImportPruner(db, { IMPORT_RETENTION_DAYS: 30 });
    expect(await pruner.prune()).toBe(2);
    const left = await db.query<Array<{ id: string }>>(
      `SELECT id FROM register.imports WHERE workspace_id = $1`,
      [caller.workspaceId],
    );
    expect(left.map((row) => row.id)).toEqual([recent.id]);
    const [{ n }] = await db.query<[{ n: number }]>(
      `SELECT count(*)::int AS n FROM register.import_rows WHERE import_id = $1`,
      [old.id],
    );
    expect(n).toBe(0);
  });
});
