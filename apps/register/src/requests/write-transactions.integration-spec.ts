import { DomainError } from '@custodian/contracts';
import { runInRpcRequest } from '@custodian/messaging';
import { createMigratedDatabase, testCaller, type MigratedDatabase } from '@custodian/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { WriteTransactions } from './write-transactions';

/** Writes bound to the caller's deadline, on a real database: late work commits nothing. */

let store: MigratedDatabase;
let db: DataSource;
let writes: WriteTransactions;

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 4));
  db = store.db;
  writes = new WriteTransactions(db);
  await db.query(`CREATE TABLE register.t_marks (id text PRIMARY KEY)`);
}, 30_000);

afterAll(() => store?.close());

async function marked(id: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(`SELECT 1 FROM register.t_marks WHERE id = $1`, [id]);
  return rows.length === 1;
}

async function recorded(id: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(`SELECT 1 FROM register.applied_requests WHERE id = $1`, [
    id,
  ]);
  return rows.length === 1;
}

const { workspaceId } = testCaller();

/** Runs `work` as the write of a request with `deadlineInMs` left, in one workspace. */
function write(id: string, deadlineInMs: number, work: Parameters<WriteTransactions['run']>[1]) {
  return runInRpcRequest({ id, deadline: Date.now() + deadlineInMs }, () =>
    writes.run(workspaceId, work),
  );
}

const isTimeout = (error: unknown) => error instanceof DomainError && error.code === 'timeout';
/** Rolled back in time: the caller is told nothing was written (503), not left guessing (504). */
const isRolledBack = (error: unknown) =>
  error instanceof DomainError &&
  error.code === 'overloaded' &&
  error.message.endsWith('nothing was written');

it('cancels a statement still running at the deadline, and writes nothing', async () => {
  const id = randomUUID();
  const started = Date.now();
  const outcome = await write(id, 400, async (tx) => {
    await tx.query(`INSERT INTO register.t_marks (id) VALUES ($1)`, [id]);
    await tx.query(`SELECT pg_sleep(2)`);
  }).catch((error: unknown) => error);
  expect(isRolledBack(outcome)).toBe(true);
  expect(Date.now() - started).toBeLessThan(1_000);
  expect(await marked(id)).toBe(false);
  expect(await recorded(id)).toBe(false);
});

it('gives up a lock wait at the deadline: a write behind a held lock does not commit late', async () => {
  const id = randomUUID();
  await db.query(`INSERT INTO register.t_marks (id) VALUES ($1)`, [`lock-${id}`]);
  const holder = db.createQueryRunner();
  await holder.connect();
  await holder.startTransaction();
  await holder.query(`SELECT 1 FROM register.t_marks WHERE id = $1 FOR UPDATE`, [`lock-${id}`]);
  try {
    const started = Date.now();
    const outcome = await write(id, 400, async (tx) => {
      await tx.query(`INSERT INTO register.t_marks (id) VALUES ($1)`, [id]);
      await tx.query(`SELECT 1 FROM register.t_marks WHERE id = $1 FOR UPDATE`, [`lock-${id}`]);
    }).catch((error: unknown) => error);
    expect(isRolledBack(outcome)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
  } finally {
    await holder.rollbackTransaction();
    await holder.release();
  }
  expect(await marked(id)).toBe(false);
});

it('rolls back work that ends too close to the deadline to answer in time', async () => {
  const id = randomUUID();
  const outcome = await write(id, 300, async (tx) => {
    await tx.query(`INSERT INTO register.t_marks (id) VALUES ($1)`, [id]);
    // Time spent outside SQL: no statement to cancel, only the check before the commit.
    await new Promise((resolve) => setTimeout(resolve, 300));
  }).catch((error: unknown) => error);
  expect(isRolledBack(outcome)).toBe(true);
  expect(await marked(id)).toBe(false);
  expect(await recorded(id)).toBe(false);
});

it('starts nothing for a request whose deadline has passed', async () => {
  const id = randomUUID();
  const outcome = await write(id, -1, async (tx) => {
    await tx.query(`INSERT INTO register.t_marks (id) VALUES ($1)`, [id]);
  }).catch((error: unknown) => error);
  expect(isRolledBack(outcome)).toBe(true);
  expect(await marked(id)).toBe(false);
});

it('applies a write in time once, and answers its repeat with the stored reply', async () => {
  const id = randomUUID();
  let runs = 0;
  const work = async (tx: Parameters<Parameters<WriteTransactions['run']>[1]>[0]) => {
    runs++;
    await tx.query(`INSERT INTO register.t_marks (id) VALUES ($1)`, [id]);
    return { id, runs };
  };
  const first = await write(id, 2_000, work);
  const second = await write(id, 2_000, work);
  expect(first).toEqual({ id, runs: 1 });
  expect(second).toEqual(first);
  expect(runs).toBe(1);
  expect(await marked(id)).toBe(true);
});

it('tells a copy that waited past its deadline for a twin still running to retry with the key', async () => {
  const id = randomUUID();
  const { workspaceId } = testCaller();
  // A twin of the request, mid-way: its row inserted, its transaction open.
  const twin = db.createQueryRunner();
  await twin.connect();
  await twin.startTransaction();
  await twin.query(
    `INSERT INTO register.applied_requests (id, workspace_id, expires_at)
     VALUES ($1, $2, now() + interval '1 minute')`,
    [id, workspaceId],
  );
  try {
    const outcome = await runInRpcRequest({ id, deadline: Date.now() + 400 }, () =>
      writes.run(workspaceId, async (tx) => {
        await tx.query(`INSERT INTO register.t_marks (id) VALUES ($1)`, [id]);
      }),
    ).catch((error: unknown) => error);
    expect(isTimeout(outcome)).toBe(true);
    expect((outcome as DomainError).message).toMatch(/still being processed; retry with the same/);
  } finally {
    await twin.rollbackTransaction();
    await twin.release();
  }
  expect(await marked(id)).toBe(false);
});

it('does not answer a request of one workspace with the stored reply of another', async () => {
  const id = randomUUID();
  const first = testCaller().workspaceId;
  const second = testCaller().workspaceId;
  await runInRpcRequest({ id, deadline: Date.now() + 2_000 }, () =>
    writes.run(first, () => Promise.resolve({ secret: 'of the first workspace' })),
  );
  const outcome = await runInRpcRequest({ id, deadline: Date.now() + 2_000 }, () =>
    writes.run(second, () => Promise.resolve({ mine: true })),
  ).catch((error: unknown) => error);
  expect(JSON.stringify(outcome)).not.toContain('of the first workspace');
});

it('answers a retry sent after the upgrade with the reply stored under the former id', async () => {
  // Applied before the upgrade: the id was the workspace's, with no sender in it.
  const formerId = `idem_former_${randomUUID()}`;
  const mark = `former-${formerId}`;
  const fingerprint = 'the same request';
  const first = await runInRpcRequest({ id: formerId, fingerprint }, () =>
    writes.run(workspaceId, async (tx) => {
      await tx.query(`INSERT INTO register.t_marks (id) VALUES ($1)`, [mark]);
      return { applied: 'first' };
    }),
  );
  // The retry, through an upgraded gateway: a new id scoped to its API key, and the former one.
  const retry = await runInRpcRequest(
    { id: `idem_new_${randomUUID()}`, fingerprint, formerId },
    () =>
      writes.run(workspaceId, async (tx) => {
        await tx.query(`INSERT INTO register.t_marks (id) VALUES ($1)`, [mark]);
        return { applied: 'again' };
      }),
  );
  expect(retry).toEqual(first);
  // The former id is looked up, not claimed: a new request under a new id still runs.
  const fresh = await runInRpcRequest({ id: `idem_new_${randomUUID()}`, fingerprint }, () =>
    writes.run(workspaceId, () => Promise.resolve({ applied: 'fresh' })),
  );
  expect(fresh).toEqual({ applied: 'fresh' });
});
