import { DomainError } from '@custodian/contracts';
import { runInRpcRequest } from '@custodian/messaging';
import { createMigratedDatabase, type MigratedDatabase } from '@custodian/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { Queryable } from '@custodian/persistence';
import type { DataSource } from 'typeorm';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { ReadTransactions } from './read-transactions';

/**
 * Reads bound to the caller's deadline, on a real database: a query blocked behind a lock
 * taken by the test's own connection stands for one that cannot finish in time.
 */

const MARGIN_MS = 100;

let store: MigratedDatabase;
let db: DataSource;
let reads: ReadTransactions;
/** The test's own connection: it holds the lock the register's reads queue behind. */
let holder: Client;
/**
 * Another one that watches pg_stat_activity: outside the holder's transaction, which would see
 * the same snapshot of it on every look.
 */
let observer: Client;

beforeAll(async () => {
  // A pool of 3, one heavy read at a time: room for a cheap read beside a blocked heavy one.
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 3));
  db = store.db;
  reads = new ReadTransactions(db, { heavyConcurrency: 1, marginMs: MARGIN_MS });
  await db.query(`CREATE TABLE register.t_slow (id int PRIMARY KEY)`);
  await db.query(`CREATE TABLE register.t_fast (id int PRIMARY KEY)`);
  await db.query(`INSERT INTO register.t_fast VALUES (1), (2)`);
  holder = new Client({ connectionString: store.database.url });
  observer = new Client({ connectionString: store.database.url });
  await Promise.all([holder.connect(), observer.connect()]);
}, 30_000);

afterAll(async () => {
  await holder?.end();
  await observer?.end();
  await store?.close();
});

/** Runs `call` as the handling of an RPC request with `deadlineInMs` left. */
function asRequest<T>(deadlineInMs: number, call: () => Promise<T>): Promise<T> {
  return runInRpcRequest({ id: randomUUID(), deadline: Date.now() + deadlineInMs }, call);
}

/** While `work` runs, the test's connection holds t_slow so that nothing else may read it. */
async function whileLocked<T>(work: () => Promise<T>): Promise<T> {
  await holder.query('BEGIN');
  await holder.query('LOCK TABLE register.t_slow IN ACCESS EXCLUSIVE MODE');
  try {
    return await work();
  } finally {
    await holder.query('ROLLBACK');
  }
}

/** The register's statements still in Postgres that read t_slow (waiting or running). */
async function slowStatements(): Promise<number> {
  const { rows } = await observer.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid()
       AND state = 'active' AND query LIKE '%FROM register.t_slow%'`,
  );
  return rows[0]?.n ?? 0;
}

const readSlow = (tx: Queryable) => tx.query(`SELECT id FROM register.t_slow`);

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const outcome = await promise.then(
    () => new Error('expected the read to fail'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof DomainError)) throw outcome;
  return outcome;
}

it('answers a read in time, in a read-only transaction whose timeouts end with it', async () => {
  const [setting] = await asRequest(2_000, () =>
    reads.run((tx) =>
      tx.query<Array<{ ro: string; timeout: string }>>(
        `SELECT current_setting('transaction_read_only') AS ro,
                current_setting('statement_timeout') AS timeout`,
      ),
    ),
  );
  expect(setting?.ro).toBe('on');
  // What was left of the deadline less the margin: about 1.9 s.
  const timeoutMs = Number(/^(\d+)ms$/.exec(setting?.timeout ?? '')?.[1] ?? NaN);
  expect(timeoutMs).toBeGreaterThan(1_500);
  expect(timeoutMs).toBeLessThanOrEqual(2_000 - MARGIN_MS);

  const rows = await asRequest(2_000, () =>
    reads.run((tx) => tx.query<Array<{ id: number }>>(`SELECT id FROM register.t_fast`)),
  );
  expect(rows.map((row) => row.id).sort()).toEqual([1, 2]);

  // Nothing can be written through a read.
  await expect(
    asRequest(2_000, () => reads.run((tx) => tx.query(`INSERT INTO register.t_fast VALUES (3)`))),
  ).rejects.toMatchObject({ driverError: { code: '25006' } });

  // Back on the pool, no connection keeps a request's timeout.
  const settings = await Promise.all(
    [1, 2, 3].map(() =>
      db.query<Array<{ t: string }>>(`SELECT current_setting('statement_timeout') AS t`),
    ),
  );
  expect(settings.map(([row]) => row?.t)).toEqual(['0', '0', '0']);
});

it('cancels a read still blocked at the deadline: overloaded, and gone from Postgres', async () => {
  await whileLocked(async () => {
    const started = Date.now();
    const error = await failure(asRequest(500, () => reads.run(readSlow)));
    const elapsed = Date.now() - started;
    expect(error.code).toBe('overloaded');
    expect(error.message).toMatch(/could not finish this read within the request deadline/);
    // Cancelled at the deadline less the margin, not at the pool's own timeout.
    expect(elapsed).toBeGreaterThanOrEqual(500 - MARGIN_MS - 50);
    expect(elapsed).toBeLessThan(500 + 300);
    // Nothing of it is left queued behind the lock.
    expect(await slowStatements()).toBe(0);
  });
});

it('does not start a read whose deadline passed before it began', async () => {
  let ran = false;
  const error = await failure(
    asRequest(MARGIN_MS - 1, () =>
      reads.heavy(async (tx) => {
        ran = true;
        return tx.query(`SELECT 1`);
      }),
    ),
  );
  expect(error.code).toBe('overloaded');
  expect(ran).toBe(false);
});

it('admits one heavy read at a time, lets one wait, refuses the rest at once; cheap reads go on', async () => {
  await whileLocked(async () => {
    const deadlineMs = 1_200;
    const started = Date.now();
    const answered: number[] = [];
    const heavy = [1, 2, 3, 4].map(() =>
      failure(asRequest(deadlineMs, () => reads.heavy(readSlow))).then((error) => {
        answered.push(Date.now() - started);
        return error;
      }),
    );
    // The two refused at once answer before anything else happens.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(answered).toHaveLength(2);
    expect(answered.every((ms) => ms < 150)).toBe(true);
    expect(reads.heavyLoad()).toEqual({ running: 1, waiting: 1, typicalRunMs: null });
    // One statement reached Postgres; the one waiting for a turn did not.
    expect(await slowStatements()).toBe(1);

    // A fetch is served meanwhile, on a connection the heavy reads cannot take.
    const fetchStarted = Date.now();
    const fetched = await asRequest(deadlineMs, () =>
      reads.run((tx) => tx.query<Array<{ id: number }>>(`SELECT id FROM register.t_fast`)),
    );
    expect(fetched).toHaveLength(2);
    expect(Date.now() - fetchStarted).toBeLessThan(150);

    const errors = await Promise.all(heavy);
    expect(errors.map((error) => error.code)).toEqual([
      'overloaded',
      'overloaded',
      'overloaded',
      'overloaded',
    ]);
    const messages = errors.map((error) => error.message).sort();
    expect(messages.filter((m) => /as many lists and searches as it can/.test(m))).toHaveLength(3);
    expect(messages.filter((m) => /within the request deadline/.test(m))).toHaveLength(1);
    // The waiter gave up once half its time had gone, the running one at the deadline.
    const [, , waiter, running] = [...answered].sort((a, b) => a - b);
    expect(waiter).toBeGreaterThanOrEqual((deadlineMs - MARGIN_MS) / 2 - 50);
    expect(waiter).toBeLessThan(deadlineMs - MARGIN_MS);
    expect(running).toBeGreaterThanOrEqual(deadlineMs - MARGIN_MS - 50);
    expect(await slowStatements()).toBe(0);
    // It learned how long a list runs here: the next ones will not wait in vain.
    const after = reads.heavyLoad();
    expect(after).toMatchObject({ running: 0, waiting: 0 });
    expect(after.typicalRunMs).toBeGreaterThanOrEqual(deadlineMs - MARGIN_MS - 100);
  });
});

describe('on a pool whose statements are bounded already', () => {
  const POOL_TIMEOUT_MS = 1_000;
  let bounded: DataSource;
  let fetches: ReadTransactions;

  beforeAll(async () => {
    bounded = await registerDataSource(store.database.url, 2, POOL_TIMEOUT_MS).initialize();
    fetches = new ReadTransactions(bounded, {
      heavyConcurrency: 1,
      marginMs: MARGIN_MS,
      poolStatementTimeoutMs: POOL_TIMEOUT_MS,
    });
  });

  afterAll(() => bounded?.destroy());

  const settings = (deadlineInMs: number) =>
    asRequest(deadlineInMs, () =>
      fetches.run((tx) =>
        tx.query<Array<{ ro: string; timeout: string }>>(
          `SELECT current_setting('transaction_read_only') AS ro,
                  current_setting('statement_timeout') AS timeout`,
        ),
      ),
    );

  it('runs a fetch with more time left than the pool bound as it is, and one with less in a bounded transaction', async () => {
    expect(await settings(3_000)).toEqual([{ ro: 'off', timeout: '1s' }]);
    const [late] = await settings(800);
    expect(late?.ro).toBe('on');
    expect(Number(/^(\d+)ms$/.exec(late?.timeout ?? '')?.[1])).toBeLessThanOrEqual(800 - MARGIN_MS);
  });

  it('cancels such a fetch at the pool bound, well before its deadline', async () => {
    await whileLocked(async () => {
      const started = Date.now();
      const error = await failure(asRequest(3_000, () => fetches.run(readSlow)));
      expect(error.code).toBe('overloaded');
      expect(Date.now() - started).toBeGreaterThanOrEqual(POOL_TIMEOUT_MS - 50);
      expect(Date.now() - started).toBeLessThan(3_000 - MARGIN_MS);
      expect(await slowStatements()).toBe(0);
    });
  });
});

it('runs as it is, on the pool, when no RPC request is being served', async () => {
  const [row] = await reads.heavy((tx) =>
    tx.query<Array<{ ro: string }>>(`SELECT current_setting('transaction_read_only') AS ro`),
  );
  expect(row?.ro).toBe('off');
});
