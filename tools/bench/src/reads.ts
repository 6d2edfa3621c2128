import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { bookingsIn, seedBookings, weekAnchor, weeks } from './booking-seed';
import { load, type LoadResult } from './load';
import { paced } from './paced';
import { benchEnv, dropDatabase, runNode, stopAll, waitForHttp } from './processes';
import {
  BARE_WORKSPACE_HEADER,
  READ_CASES,
  READ_TARGETS,
  deepPage,
  markdownTable,
  ms,
  selectCases,
  share,
  statusMix,
  type CaseMeasure,
  type ReadCase,
} from './read-cases';
import {
  TENANT_ASSETS,
  TERMS,
  matchCounts,
  sampleIds,
  seedTenants,
  seedWorkspace,
  type SeedTimes,
} from './read-seed';
import { sampleRss } from './rss';
import { processCpuMs } from './rpc-processes';
import { benchRpc } from './rpc';
import { createTenant } from './tenant';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 1_000_000);
/** Bookings in the big workspace, seeded only when a booking case runs (issue 32). */
const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 1_000_000);
const TENANTS = Number(process.env.BENCH_TENANTS ?? 5000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** The steady run's rate, req/s, for every case; by default half of each case's own peak. */
const STEADY_RATE = process.env.BENCH_STEADY_RATE
  ? Number(process.env.BENCH_STEADY_RATE)
  : undefined;
/** Issue 13 measures the unpaged array for 15 s, and saturation at 64 connections. */
const UNPAGED_SECONDS = 15;
const SATURATION_CONNECTIONS = 64;
/** The single fetches paced beside the saturating load. */
const BESIDE_RATE = 20;
const WARMUP_SECONDS = 2;
const FULL = 'http://127.0.0.1:3200';
const BARE = 'http://127.0.0.1:3202';

/** The cases that read the big workspace, which is seeded only when one of them runs. */
const BIG_WORKSPACE_CASES: ReadCase[] = READ_CASES.filter((name) => name !== 'tenant');
const BOOKING_CASES: ReadCase[] = ['availability', 'bookings-week'];
/** The weeks the booking cases read, from this many weeks before the current one. */
const BOOKING_WEEKS = { first: -5, count: 10 };

interface CaseRun {
  name: ReadCase;
  route: string;
  measure: CaseMeasure;
}

interface Stack {
  gateway: ChildProcess;
  register: ChildProcess;
  bare: ChildProcess;
}

/**
 * `npm run bench -- reads`: the full path (gateway → RabbitMQ → register → Postgres) against a
 * bare Fastify + pg handler serving the same SQL, case by case (issue 13): single fetch, page 1,
 * searches of each kind on BENCH_ASSETS (1,000,000) assets in one workspace, a deep page, the
 * unpaged array, saturation, and a search in a 1,000-asset workspace beside BENCH_TENANTS
 * (5,000) others of 1,000; then, with BENCH_BOOKINGS (1,000,000) bookings in the big workspace,
 * a busy asset's availability over a week and a week's first page of bookings (issue 32).
 * BENCH_CASES=a,b runs some. Then the RPC transport alone
 * (`npm run bench -- rpc`).
 */
export async function benchReads(): Promise<void> {
  const cases = selectCases(process.env.BENCH_CASES);
  const run = randomBytes(3).toString('hex');
  const database = `custodian_bench_${run}`;
  const env = benchEnv(run);
  const children: ChildProcess[] = [];
  const db = new Client({ connectionString: env.DATABASE_URL });
  try {
    for (const app of ['gateway', 'register', 'webhook-worker']) {
      const migration = runNode(`apps/${app}/src/migrate.js`, env);
      await new Promise((resolve) => migration.once('exit', resolve));
    }
    const register = runNode('apps/register/src/main.js', { ...env, HEALTH_PORT: '3201' });
    const gateway = runNode('apps/gateway/src/main.js', {
      ...env,
      PORT: '3200',
      HEALTH_PORT: '3203',
    });
    children.push(register, gateway);
    await waitForHttp('http://127.0.0.1:3200/health');
    await waitForHttp('http://127.0.0.1:3201/health');
    await db.connect();

    const big = await createTenant(env, 'Bench');
    if (BIG_WORKSPACE_CASES.some((name) => cases.has(name))) {
      const times = await seedWorkspace(db, big.workspace.id, ASSETS, 'bench');
      printSeed(`${ASSETS} assets in one workspace`, times);
      const terms = [
        ...TERMS.selective,
        ...TERMS.broad,
        ...TERMS.twoWord,
        ...TERMS.exact,
        ...TERMS.punctuation,
      ];
      printCounts(await matchCounts(db, big.workspace.id, terms), ASSETS);
    }
    const anchor = weekAnchor(new Date());
    const bookingWeeks = weeks(anchor, BOOKING_WEEKS.first, BOOKING_WEEKS.count);
    let busyAssetId = '';
    if (BOOKING_CASES.some((name) => cases.has(name))) {
      const seeded = await seedBookings(db, big.workspace.id, ASSETS, BOOKINGS, 'bench', anchor);
      busyAssetId = seeded.busyAssetId;
      printSeed(`${BOOKINGS} bookings over the ${ASSETS} assets`, seeded);
      const counts = [];
      for (const week of bookingWeeks) {
        counts.push(await bookingsIn(db, big.workspace.id, week.from, week.to));
      }
      console.log(`bookings in each week read: ${counts.join(', ')}; busy asset ${busyAssetId}\n`);
    }
    const bare = runNode('tools/bench/src/bare-server.js', {
      ...env,
      PORT: '3202',
      BENCH_WORKSPACE_ID: big.workspace.id,
    });
    children.push(bare);
    await waitForHttp(`${BARE}/assets?page=1`);
    const stack: Stack = { gateway, register, bare };
    const registerPid = pidOf(register, 'register');
    const quiet = () => waitQuiet(db, registerPid);

    const auth = { authorization: `Bearer ${big.key.key}` };
    const results: CaseRun[] = [];
    const ids =
      cases.has('fetch') || cases.has('saturation')
        ? await sampleIds(db, big.workspace.id, 1000)
        : [];
    const idPaths = ids.map((id) => `/assets/${id}`);
    const searching = (terms: readonly string[], page = 1, pageSize = 50) =>
      terms.map(
        (term) => `/assets?page=${page}&pageSize=${pageSize}&search=${encodeURIComponent(term)}`,
      );
    const deep = deepPage(ASSETS, 200);
    const plain: Array<[ReadCase, string, string[]]> = [
      ['fetch', 'GET /assets/{id}', idPaths],
      ['page1', 'GET /assets?page=1&pageSize=50', ['/assets?page=1&pageSize=50']],
      ['selective', `search ${TERMS.selective.join(', ')}`, searching(TERMS.selective)],
      ['broad', `search ${TERMS.broad.join(', ')}, page 1`, searching(TERMS.broad)],
      [
        'broad-pages',
        `search ${TERMS.broad.join(', ')}, pages 2..21`,
        range(2, 21).flatMap((page) => searching(TERMS.broad, page)),
      ],
      ['two-word', `search ${TERMS.twoWord.join(', ')}`, searching(TERMS.twoWord)],
      ['exact', `search ${TERMS.exact.join(', ')}`, searching(TERMS.exact)],
      ['punctuation', `search ${TERMS.punctuation.join(', ')}`, searching(TERMS.punctuation)],
      [
        'deep',
        `pageSize=200, pages ${deep}..${deep + 9} (offset ${(deep - 1) * 200})`,
        range(deep, deep + 9).map((page) => `/assets?page=${page}&pageSize=200`),
      ],
      [
        'sorted',
        'sort=name, -name, -updated_at, pages 1..10 of 50',
        ['name', '-name', '-updated_at'].flatMap((sort) =>
          range(1, 10).map((page) => `/assets?page=${page}&pageSize=50&sort=${sort}`),
        ),
      ],
      [
        'availability',
        `GET /assets/{busy}/availability, ${BOOKING_WEEKS.count} weeks`,
        bookingWeeks.map(
          ({ from, to }) => `/assets/${busyAssetId}/availability?${rangeQuery(from, to)}`,
        ),
      ],
      [
        'bookings-week',
        `GET /bookings?from&to, ${BOOKING_WEEKS.count} weeks, page 1 of 50`,
        bookingWeeks.map(({ from, to }) => `/bookings?${rangeQuery(from, to)}`),
      ],
    ];
    for (const [name, route, paths] of plain) {
      if (!cases.has(name)) continue;
      results.push({ name, route, measure: await measureCase(quiet, route, paths, auth, {}) });
    }
    if (cases.has('unpaged')) {
      const route = 'GET /assets (unpaged, up to 10,000)';
      const measure = await measureCase(
        quiet,
        route,
        ['/assets'],
        auth,
        {},
        { stack, seconds: UNPAGED_SECONDS },
      );
      results.push({ name: 'unpaged', route, measure });
    }
    if (cases.has('saturation')) {
      results.push({
        name: 'saturation',
        route: `${SATURATION_CONNECTIONS} connections of search ${TERMS.broad.join(', ')}`,
        measure: await saturate(quiet, searching(TERMS.broad), idPaths, auth),
      });
    }
    if (cases.has('tenant')) {
      const small = await createTenant(env, 'Bench small');
      printSeed(
        `${TENANT_ASSETS} assets in the searched workspace`,
        await seedWorkspace(db, small.workspace.id, TENANT_ASSETS, 'small'),
      );
      const times = await seedTenants(db, TENANTS, (done) =>
        console.log(`  ${done} of ${TENANTS} tenants seeded`),
      );
      printSeed(`${TENANTS} workspaces of ${TENANT_ASSETS} assets`, times);
      printCounts(await matchCounts(db, small.workspace.id, TERMS.tenant), TENANT_ASSETS);
      const route = `search ${TENANT_ASSETS} assets beside ${TENANTS} workspaces' ${TENANTS * TENANT_ASSETS}`;
      const measure = await measureCase(
        quiet,
        route,
        searching(TERMS.tenant),
        { authorization: `Bearer ${small.key.key}` },
        { [BARE_WORKSPACE_HEADER]: small.workspace.id },
      );
      results.push({ name: 'tenant', route, measure });
    }
    printTables(results);
  } finally {
    await db.end().catch(() => undefined);
    await stopAll(children);
    await dropDatabase(database);
  }
  await benchRpc();
}

/**
 * One case: the full path, then the bare handler, each at the peak after a warm-up, then the
 * full path at a steady half of its peak (open loop, so queueing counts). With `rss`, samples
 * the apps' memory from before the warm-up to the end of the peak run.
 */
async function measureCase(
  quiet: () => Promise<void>,
  route: string,
  paths: string[],
  fullHeaders: Record<string, string>,
  bareHeaders: Record<string, string>,
  rss?: { stack: Stack; seconds: number },
): Promise<CaseMeasure> {
  const seconds = rss?.seconds ?? DURATION;
  const common = { name: route, connections: CONNECTIONS, durationSeconds: seconds };
  const full = { ...common, url: FULL, headers: fullHeaders, paths: paths.map(api) };
  const bare = { ...common, url: BARE, headers: bareHeaders, paths };
  console.log(`case: ${route}`);

  await quiet();
  const firstMs = await slowestFirst(full.url, full.paths, fullHeaders);
  await quiet();
  const fullRss = rss && sampleRss(pidsOf(rss.stack, ['gateway', 'register']));
  await load({ ...full, durationSeconds: WARMUP_SECONDS });
  // The warm-up's callers leave, their requests do not: a slow case's would fill the run.
  await quiet();
  const fullRun = await load(full);
  const rssMb = fullRss?.stop();
  await quiet();
  const bareRss = rss && sampleRss(pidsOf(rss.stack, ['bare']));
  await load({ ...bare, durationSeconds: WARMUP_SECONDS });
  await quiet();
  const bareRun = await load(bare);
  const bareMb = bareRss?.stop();
  await quiet();
  // Half of the work done, not of the answers: refusals are quick and would inflate it.
  // BENCH_STEADY_RATE sets it instead, so that two builds or runtimes compare at one rate.
  const rate = STEADY_RATE ?? Math.max(1, Math.round(fullRun.okPerSecond / 2));
  const steady = await paced({
    ...full,
    name: `${route} at ${rate} req/s`,
    durationSeconds: DURATION,
    ratePerSecond: rate,
  });
  await quiet();
  const bareSteady = await paced({
    ...bare,
    name: `${route} bare at ${rate} req/s`,
    durationSeconds: DURATION,
    ratePerSecond: rate,
  });
  return { full: fullRun, bare: bareRun, steady, bareSteady, rssMb, bareRssMb: bareMb, firstMs };
}

/** Each path once, one after another, before anything else asked for it: the slowest, ms. */
async function slowestFirst(
  url: string,
  paths: string[],
  headers: Record<string, string>,
): Promise<number> {
  let slowest = 0;
  for (const path of paths) {
    const started = performance.now();
    const response = await fetch(`${url}${path}`, { headers });
    await response.arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
  }
  return slowest;
}

/**
 * Saturation: SATURATION_CONNECTIONS callers of the broad search for the run's duration while
 * single fetches arrive beside them at a modest steady rate.
 */
async function saturate(
  quiet: () => Promise<void>,
  broadPaths: string[],
  idPaths: string[],
  auth: Record<string, string>,
): Promise<CaseMeasure> {
  console.log('case: saturation');
  await quiet();
  const [full, beside] = await Promise.all([
    load({
      name: 'broad search',
      url: FULL,
      headers: auth,
      paths: broadPaths.map(api),
      connections: SATURATION_CONNECTIONS,
      durationSeconds: DURATION,
      countRetryAfter: true,
    }),
    paced({
      name: `GET /assets/{id} at ${BESIDE_RATE} req/s`,
      url: FULL,
      headers: auth,
      paths: idPaths.map(api),
      ratePerSecond: BESIDE_RATE,
      durationSeconds: DURATION,
      connections: 16,
    }),
  ]);
  return { full, beside };
}

const api = (path: string) => `/api/v1${path}`;

/** `from=...&to=...`, ISO. */
const rangeQuery = (from: Date, to: Date) =>
  `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;

/**
 * Waits until the register and Postgres have finished the last run's work: requests whose
 * callers gave up at the gateway's deadline stay queued and keep running, and would otherwise
 * load the next run. Quiet means three polls in a row with the register under 10% of a CPU and
 * no query of the bench's database running; gives up, saying so, after a minute.
 */
async function waitQuiet(db: Client, registerPid: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (let quietPolls = 0; quietPolls < 3;) {
    if (Date.now() > deadline) {
      console.log('  (the register was still busy after 60 s; measuring anyway)');
      return;
    }
    const cpuBefore = processCpuMs(registerPid);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const busyMs = processCpuMs(registerPid) - cpuBefore;
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND backend_type = 'client backend'
         AND state = 'active' AND pid <> pg_backend_pid()`,
    );
    quietPolls = busyMs <= 20 && rows[0]?.n === 0 ? quietPolls + 1 : 0;
  }
}

function pidsOf(stack: Stack, apps: Array<keyof Stack>): Record<string, number> {
  return Object.fromEntries(apps.map((app) => [app, pidOf(stack[app], app)]));
}

function pidOf(child: ChildProcess, app: string): number {
  if (child.pid === undefined) throw new Error(`${app} did not start`);
  return child.pid;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function printSeed(what: string, times: SeedTimes): void {
  const seconds = (value: number) => (value / 1000).toFixed(1);
  console.log(
    `seeded ${what}: insert ${seconds(times.insertMs)} s, vacuum analyze + checkpoint ${seconds(times.vacuumMs)} s`,
  );
}

function printCounts(counts: Array<{ term: string; matches: number }>, of: number): void {
  const rows = counts.map(({ term, matches }) => [
    `\`${term}\``,
    String(matches),
    `${((100 * matches) / of).toFixed(2)}%`,
  ]);
  console.log(`\n${markdownTable(['term', 'matches', `of ${of}`], rows)}\n`);
}

function printTables(results: CaseRun[]): void {
  const errors = (run: LoadResult | undefined) =>
    run === undefined ? '-' : String(run.errors + run.non2xx);
  const metCell = (run: CaseRun) => {
    const target = READ_TARGETS[run.name];
    return target ? [target.text, target.met(run.measure) ? 'yes' : 'no'] : ['-', '-'];
  };
  const compared = results.filter((run) => run.measure.bare !== undefined);
  console.log(
    '\nAt the peak (closed loop): "2xx/s" is the work done, the rate the steady run takes' +
      ' half of; "answers/s" includes the register\'s quick refusals (503 + Retry-After, ADR' +
      ' 0015), counted with any other non-2xx under "errors". Latencies are of every answer.\n' +
      `\n${CONNECTIONS} connections, ${DURATION} s per run, ` +
      `${ASSETS} assets in one workspace (${BOOKINGS} bookings when a booking case runs); ` +
      `many-tenant: ${TENANTS} x ${TENANT_ASSETS}\n`,
  );
  console.log(
    markdownTable(
      [
        'case',
        'route',
        'full 2xx/s',
        'full answers/s',
        'full p50 ms',
        'full p99 ms',
        'bare 2xx/s',
        'bare p50 ms',
      ].concat(['bare p99 ms', 'full/bare', 'errors full/bare']),
      compared.map(({ name, route, measure: { full, bare } }) => [
        name,
        route,
        full.okPerSecond.toFixed(0),
        full.requestsPerSecond.toFixed(0),
        ms(full.p50),
        ms(full.p99),
        bare ? bare.okPerSecond.toFixed(0) : '-',
        bare ? ms(bare.p50) : '-',
        bare ? ms(bare.p99) : '-',
        bare ? share(full.okPerSecond, bare.okPerSecond) : '-',
        `${errors(full)}/${errors(bare)}`,
      ]),
    ),
  );

  console.log(
    '\nFull path at a steady half of its peak rate (open loop); "first": the slowest first' +
      ' request of a path, before the list cache knew it; "bare": the bare handler at the same' +
      ' rate, the same SQL without the hops:\n',
  );
  console.log(
    markdownTable(
      [
        'case',
        'first ms',
        'req/s',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'errors',
        'bare p95 ms',
        'bare p99 ms',
        'target',
        'met',
      ],
      results
        .filter((run) => run.measure.steady !== undefined)
        .map((run) => {
          const steady = run.measure.steady as LoadResult;
          return [
            run.name,
            run.measure.firstMs === undefined ? '-' : ms(run.measure.firstMs),
            steady.requestsPerSecond.toFixed(0),
            ms(steady.p50),
            ms(steady.p95),
            ms(steady.p99),
            errors(steady),
            run.measure.bareSteady ? ms(run.measure.bareSteady.p95) : '-',
            run.measure.bareSteady ? ms(run.measure.bareSteady.p99) : '-',
            // The unpaged array's target is of its run at full load, in its own table.
            ...(run.name === 'unpaged' ? ['(below, at full load)', '-'] : metCell(run)),
          ];
        }),
    ),
  );

  const unpaged = results.find((run) => run.name === 'unpaged');
  if (unpaged) {
    const { full, bare, rssMb, bareRssMb } = unpaged.measure;
    const mb = (growth: Record<string, number> | undefined) =>
      Object.entries(growth ?? {})
        .map(([app, value]) => `${app} +${value.toFixed(0)}`)
        .join(', ');
    console.log(`\nUnpaged array, ${CONNECTIONS} connections for ${UNPAGED_SECONDS} s:\n`);
    console.log(
      markdownTable(
        ['run', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'RSS growth MB', 'target', 'met'],
        [
          [
            'full path',
            full.requestsPerSecond.toFixed(0),
            ms(full.p50),
            ms(full.p95),
            ms(full.p99),
            errors(full),
            mb(rssMb),
            ...metCell(unpaged),
          ],
          ...(bare
            ? [
                [
                  'bare',
                  bare.requestsPerSecond.toFixed(0),
                  ms(bare.p50),
                  ms(bare.p95),
                  ms(bare.p99),
                  errors(bare),
                  mb(bareRssMb),
                  '-',
                  '-',
                ],
              ]
            : []),
        ],
      ),
    );
  }

  const saturation = results.find((run) => run.name === 'saturation');
  if (saturation) {
    const { full, beside } = saturation.measure;
    const mix = statusMix(full);
    console.log(
      `\nSaturation: ${SATURATION_CONNECTIONS} connections of broad search for ${DURATION} s, ` +
        `single fetches at ${BESIDE_RATE} req/s beside it:\n`,
    );
    console.log(
      markdownTable(
        [
          'broad req/s',
          'broad p99 ms',
          '200',
          '503 + Retry-After',
          '503 without',
          '504',
          'other',
          'no answer',
        ].concat(['fetch p50 ms', 'fetch p99 ms', 'fetch errors', 'target', 'met']),
        [
          [
            full.requestsPerSecond.toFixed(0),
            ms(full.p99),
            String(mix.ok),
            String(mix.retryAfter503),
            String(mix.other503),
            String(mix.timeout504),
            String(mix.other),
            String(mix.noAnswer),
            beside ? ms(beside.p50) : '-',
            beside ? ms(beside.p99) : '-',
            errors(beside),
            ...metCell(saturation),
          ],
        ],
      ),
    );
  }
}
