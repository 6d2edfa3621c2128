import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import {
  perSecond,
  probeCell,
  scansCell,
  summarizePlan,
  timings,
  type ExplainJson,
  type PlanSummary,
} from './due-sweep-summary';
import { benchEnv, dropDatabase, REPO_ROOT, runNode } from './processes';
import { markdownTable, ms } from './read-cases';

/** Armed notices seeded (issue 33: 1,000,000), of which BENCH_DUE_NOTICES are due at once. */
const NOTICES = Number(process.env.BENCH_NOTICES ?? 1_000_000);
const DUE = Number(process.env.BENCH_DUE_NOTICES ?? 10_000);
/** Sweeps timed with nothing due, before the instant and again once all have fired. */
const EMPTY_SWEEPS = Number(process.env.BENCH_EMPTY_SWEEPS ?? 200);
/** Untimed sweeps before the timed ones of each state. */
const WARMUP_SWEEPS = 1000;
/** The engine's batch (due-date-engine.ts BATCH): a run goes on until a claim finds fewer. */
const ENGINE_BATCH = 100;
/** The kind of every seeded notice: the bench's own, with a handler that only fires. */
const KIND = 'bench.due-sweep';
/** Workspaces the notices spread over; ids of the bench's own, in a database of its own. */
const WORKSPACES = 100;
/** The instant the due notices fall due by: the engine's clock is injected, so any will do. */
const INSTANT = new Date('2035-01-01T09:00:00.000Z');
/** The due notices fall due within the minute before INSTANT; the sweep "before" is earlier. */
const DUE_SPREAD_SECONDS = 60;
const BEFORE = new Date(INSTANT.getTime() - (DUE_SPREAD_SECONDS + 1) * 1000);
/** The rest fall due over the year after INSTANT. */
const FUTURE_SPREAD_SECONDS = 365 * 24 * 60 * 60;
const CLAIM_MARKER = 'WITH claimed AS';

/** What the bench uses of the register's built due-date engine (due-date-engine.ts). */
interface DueRun {
  fired: number;
  obsolete: number;
  busy: number;
  failed: number;
}
interface Engine {
  handle(kind: string, handler: () => Promise<'fired'>): void;
  runDue(now: Date): Promise<DueRun>;
}
interface EngineModule {
  DueDateEngine: new (db: DataSource, config: { DUE_DATES_SWEEP_MS: number }) => Engine;
}
interface DataSourceModule {
  registerDataSource: (url: string, poolSize?: number) => DataSource;
}

/**
 * The register's compiled module at `entry` (under dist/), loaded as the running register
 * loads it. Not imported: tools depend on libs only (eslint.config.mjs), and the engine has no
 * RPC that takes a handler of the bench's own; the build of the register is the bench's
 * (project.json implicitDependencies), so it is there.
 */
async function registerModule<T>(entry: string): Promise<T> {
  return (await import(path.join(REPO_ROOT, 'dist/apps/register/src', entry))) as T;
}

/** A claim the engine sent: its SQL and parameters, as TypeORM's logger sees them. */
interface Claim {
  sql: string;
  parameters: unknown[];
}

interface EmptySweep {
  label: string;
  at: Date;
  plan: PlanSummary;
  /** Timed sweeps, ms; none for a plan that is only explained. */
  sweepMs: number[];
  claim?: Claim;
}

/**
 * `npm run bench -- due-sweep` (issue 33): the due-date engine's sweep over BENCH_NOTICES
 * (1,000,000) armed notices in register.due_notices, BENCH_DUE_NOTICES (10,000) of them due at
 * once. In a database of its own, migrated as the register migrates it, it seeds the notices
 * in one INSERT ... SELECT, builds the register's DueDateEngine (its build, as the integration
 * spec builds it) with one handler that only answers 'fired', so the figures are the engine's
 * (claim, savepoint, mark fired) and not a domain's, and moves its clock:
 * - before the instant (nothing due): the claim's EXPLAIN (ANALYZE, BUFFERS) and
 *   BENCH_EMPTY_SWEEPS (200) timed sweeps;
 * - at the instant: sweeps until one fires nothing, timed (notices a second, sweeps, claims);
 * - at the instant again, all fired: the claim's plan and the timed sweeps once more.
 * The plan is the engine's own statement, caught as it sends it. The database is dropped.
 */
export async function benchDueSweep(): Promise<void> {
  if (!Number.isInteger(NOTICES / DUE) || DUE > NOTICES) {
    throw new Error('BENCH_DUE_NOTICES must divide BENCH_NOTICES');
  }
  const run = randomBytes(3).toString('hex');
  const database = `custodian_bench_${run}`;
  const env = benchEnv(run);
  let db: DataSource | undefined;
  try {
    const migration = runNode('apps/register/src/migrate.js', env);
    const code = await new Promise((resolve) => migration.once('exit', resolve));
    if (code !== 0) throw new Error(`the register's migration exited with ${String(code)}`);

    const { registerDataSource } =
      await registerModule<DataSourceModule>('database/data-source.js');
    const { DueDateEngine } = await registerModule<EngineModule>('due-dates/due-date-engine.js');
    db = registerDataSource(env.DATABASE_URL, 2);
    await db.initialize();
    const claims = catchClaims(db);

    const seedMs = await seed(db);
    console.log(
      `seeded ${NOTICES} armed notices (${DUE} due by ${INSTANT.toISOString()}) in ` +
        `${(seedMs.insertMs / 1000).toFixed(1)} s, vacuum analyze + checkpoint ` +
        `${(seedMs.settleMs / 1000).toFixed(1)} s`,
    );

    let handled = 0;
    const engine = new DueDateEngine(db, { DUE_DATES_SWEEP_MS: 3_600_000 });
    engine.handle(KIND, () => {
      handled += 1;
      return Promise.resolve('fired');
    });

    const before = await emptySweep(db, engine, claims, 'before the instant', BEFORE);
    // The first claim of the firing sweep, explained (and rolled back) before it runs: the
    // engine's statement with its clock at the instant.
    const [, ...rest] = before.claim?.parameters ?? [];
    const due: EmptySweep = {
      label: `${DUE} due: the first claim at the instant (not empty)`,
      at: INSTANT,
      plan: await explainClaim(db, {
        sql: before.claim?.sql ?? '',
        parameters: [INSTANT, ...rest],
      }),
      sweepMs: [],
    };

    // Fire: sweeps at the instant until one finds nothing. One sweep claims batch after batch
    // until a claim finds fewer than a batch, so the first should fire them all.
    const claimsBefore = claims.length;
    const sweepMs: number[] = [];
    let fired = 0;
    let fireMs = 0;
    let fireClaims = 0;
    for (;;) {
      const started = performance.now();
      const result = await engine.runDue(INSTANT);
      const took = performance.now() - started;
      sweepMs.push(took);
      if (result.failed + result.busy + result.obsolete > 0) {
        throw new Error(`a sweep did not only fire: ${JSON.stringify(result)}`);
      }
      if (result.fired === 0) break;
      fired += result.fired;
      fireMs += took;
      fireClaims = claims.length - claimsBefore;
    }
    const settled = await states(db);
    if (fired !== DUE || handled !== DUE || settled.fired !== DUE) {
      throw new Error(
        `fired ${fired} (handler ${handled}, in the table ${settled.fired}), expected ${DUE}`,
      );
    }

    const after = await emptySweep(db, engine, claims, 'all fired, at the instant', INSTANT);
    // What the fired notices leave in the index until a vacuum removes them (autovacuum, on
    // its own schedule, in production).
    await db.query('VACUUM register.due_notices');
    const vacuumed = await emptySweep(db, engine, claims, 'all fired, vacuumed', INSTANT);

    console.log(
      `\nFiring ${DUE} notices due at once among ${NOTICES} (engine batch ${ENGINE_BATCH}, ` +
        `a handler that only fires):\n`,
    );
    console.log(
      markdownTable(
        [
          'notices fired',
          'time to fire all ms',
          'notices/s',
          'sweeps',
          'claims (batches) of the firing sweeps',
        ],
        [
          [
            String(fired),
            ms(fireMs),
            perSecond(fired, fireMs).toFixed(0),
            // The last sweep found nothing: it is the one that says all have fired.
            `${sweepMs.length - 1} firing + 1 empty`,
            String(fireClaims),
          ],
        ],
      ),
    );
    console.log(
      `\nA sweep with nothing due, ${NOTICES} then ${settled.armed} armed (the claim's EXPLAIN (ANALYZE, ` +
        `BUFFERS); ${EMPTY_SWEEPS} sweeps timed, each a transaction of the claim); the target ` +
        `is one index probe:\n`,
    );
    console.log(
      markdownTable(
        [
          'state',
          'scans',
          'rows scanned',
          'buffers hit/read',
          'nodes',
          'one index probe',
          'planning / execution ms',
          'sweep p50 ms',
          'sweep p95 ms',
          'sweep max ms',
        ],
        [before, due, after, vacuumed].map((sweep) => {
          const times = timings(sweep.sweepMs);
          return [
            sweep.label,
            scansCell(sweep.plan.scans),
            String(sweep.plan.rowsScanned),
            `${sweep.plan.sharedHit}/${sweep.plan.sharedRead}`,
            sweep.plan.nodeTypes.join(' > '),
            probeCell(sweep.plan),
            `${sweep.plan.planningMs.toFixed(3)} / ${sweep.plan.executionMs.toFixed(3)}`,
            ms(times.p50),
            ms(times.p95),
            ms(times.max),
          ];
        }),
      ),
    );
  } finally {
    await db?.destroy().catch(() => undefined);
    await dropDatabase(database);
  }
}

/**
 * The notices, in one INSERT ... SELECT with the migrations' indexes in place, as production
 * holds them: every (NOTICES / DUE)-th is due in the minute before INSTANT, so the due ones
 * lie all over the table as they would; the others fall due over the year after it. Each has
 * a subject of its own, in one of WORKSPACES workspaces of the bench.
 */
async function seed(db: DataSource): Promise<{ insertMs: number; settleMs: number }> {
  const started = performance.now();
  await db.query(
    `INSERT INTO register.due_notices
            (workspace_id, subject_type, subject_id, kind, due_at, next_attempt_at)
     SELECT 'wsp_benchdue_' || (g % $2::int), 'bench', 'due_' || g, $3::text, at, at
       FROM (SELECT g, CASE WHEN g % $4::int = 0
                            THEN $5::timestamptz - make_interval(secs => (g / $4::int) % $6::int)
                            ELSE $5::timestamptz
                                 + make_interval(secs => 1 + (g::bigint * 7919) % $7::int)
                       END AS at
               FROM generate_series(1, $1::int) g) s`,
    [NOTICES, WORKSPACES, KIND, NOTICES / DUE, INSTANT, DUE_SPREAD_SECONDS, FUTURE_SPREAD_SECONDS],
  );
  const insertMs = performance.now() - started;
  const settling = performance.now();
  // Settled now, or autovacuum and a checkpoint would land in the middle of the sweeps.
  await db.query('VACUUM ANALYZE register.due_notices');
  await db.query('CHECKPOINT');
  const settleMs = performance.now() - settling;
  const [counts] = await db.query<Array<{ due: number; early: number }>>(
    `SELECT count(*) FILTER (WHERE next_attempt_at <= $1)::int AS due,
            count(*) FILTER (WHERE next_attempt_at <= $2)::int AS early
       FROM register.due_notices`,
    [INSTANT, BEFORE],
  );
  if (counts?.due !== DUE || counts.early !== 0) {
    throw new Error(`seeded ${JSON.stringify(counts)} due, expected ${DUE} and 0 before`);
  }
  return { insertMs, settleMs };
}

/**
 * Every claim the engine sends from now on, caught from TypeORM's logger (which every query
 * of the data source goes through), so the plan the bench explains is of the engine's own
 * statement and parameters.
 */
function catchClaims(db: DataSource): Claim[] {
  const claims: Claim[] = [];
  const logger = db.logger;
  const logQuery = logger.logQuery.bind(logger);
  logger.logQuery = (query, parameters, queryRunner) => {
    if (query.includes(CLAIM_MARKER)) claims.push({ sql: query, parameters: parameters ?? [] });
    logQuery(query, parameters, queryRunner);
  };
  return claims;
}

/**
 * A sweep at `at` with nothing due: one sweep to catch the claim, then its EXPLAIN (ANALYZE,
 * BUFFERS, FORMAT JSON), then WARMUP_SWEEPS sweeps untimed and EMPTY_SWEEPS timed.
 */
async function emptySweep(
  db: DataSource,
  engine: Engine,
  claims: Claim[],
  label: string,
  at: Date,
): Promise<EmptySweep> {
  const caught = claims.length;
  const first = await engine.runDue(at);
  const claim = claims[caught];
  if (first.fired !== 0 || claim === undefined || claims.length !== caught + 1) {
    throw new Error(`the sweep ${label} was not one empty claim (fired ${first.fired})`);
  }
  const plan = await explainClaim(db, claim);
  // Untimed first: the first sweeps of a process pay for V8 compiling the engine's path.
  for (let i = 0; i < WARMUP_SWEEPS; i++) await engine.runDue(at);
  const sweepMs: number[] = [];
  for (let i = 0; i < EMPTY_SWEEPS; i++) {
    const started = performance.now();
    const result = await engine.runDue(at);
    sweepMs.push(performance.now() - started);
    if (result.fired !== 0) throw new Error(`a sweep ${label} fired ${result.fired}`);
  }
  return { label, at, plan, sweepMs, claim };
}

/**
 * The claim's EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON), in a transaction rolled back: the claim
 * locks what it finds, and the locks go with it, so nothing is claimed for good.
 */
async function explainClaim(db: DataSource, claim: Claim): Promise<PlanSummary> {
  const runner = db.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    const [row] = (await runner.query(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${claim.sql}`,
      claim.parameters,
    )) as Array<{ 'QUERY PLAN': ExplainJson[] }>;
    const [explain] = row?.['QUERY PLAN'] ?? [];
    if (explain === undefined) throw new Error('EXPLAIN answered no plan');
    return summarizePlan(explain);
  } finally {
    await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}

/** How many of the notices are fired and armed. */
async function states(db: DataSource): Promise<{ fired: number; armed: number }> {
  const [counts] = await db.query<Array<{ fired: number; armed: number }>>(
    `SELECT count(*) FILTER (WHERE fired_at IS NOT NULL)::int AS fired,
            count(*) FILTER (WHERE fired_at IS NULL AND cancelled_at IS NULL
                               AND failed_at IS NULL)::int AS armed
       FROM register.due_notices`,
  );
  return counts ?? { fired: 0, armed: 0 };
}
