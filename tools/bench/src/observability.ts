import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { marginalCpuMs, sampleCpu } from './cpu';
import { load, type LoadResult } from './load';
import { changeCell } from './quantile';
import { rotated } from './rotation';
import { Sink } from './sink';
import {
  REPO_ROOT,
  benchStackEnv,
  deleteBenchTopology,
  dropDatabase,
  startApps,
  stopAll,
  type BenchEnv,
} from './processes';
import { createTenant } from './tenant';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/**
 * BENCH_RATE=<GET/s>,<POST/s>: offer this load instead of as much as the stack takes. Below
 * saturation the apps do not fight over the cores, so their CPU per answer is steadier still.
 */
const RATES = process.env.BENCH_RATE?.split(',').map(Number);
/**
 * BENCH_TOGETHER=1 (with BENCH_RATE): every variant's stack takes the same offered load at the
 * same time, so the host's drift and its other tenants weigh on all of them alike, and the
 * variants are compared on the CPU their apps spent per answer. On this two-core VM that is
 * the steadier measure: slices seconds apart still differ by what the host did in between.
 */
const TOGETHER = process.env.BENCH_TOGETHER === '1';
/**
 * Together mode starts each round with this long a window in which no stack gets any load, to
 * measure what each app spends a second on its own (timers, pollers, metrics sampling). The
 * rounds' marginal CPU per answer leaves that out: it is what bounds the requests a second at
 * saturation, where idle work is a small fixed share of a core. 0 skips the window.
 */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? SECONDS);
/** Assets created before the reads, which cycle through them. */
const ASSETS = 500;
/** Another checkout of this repo, built, to run as the baseline (e.g. before issue 15). */
const BASELINE = process.env.BENCH_BASELINE;
const PORT = 3230;
/** Only these variants (comma-separated keys: baseline, off, on, sampled, unsampled); default all. */
const ONLY = process.env.BENCH_VARIANTS?.split(',').filter(Boolean);
/** How long the worker may take to deliver the writes' webhooks after the load stops. */
const DRAIN_MS = 60_000;

interface Variant {
  key: string;
  name: string;
  env: Record<string, string>;
  root: string;
  /** Export traces to the stack's sink (OTEL_EXPORTER_OTLP_ENDPOINT). */
  traced?: boolean;
}

/** CPU ms the three apps spent per 2xx answer, each and in all. */
type CpuPerRequest = Record<'gateway' | 'register' | 'webhook-worker' | 'apps', number>;

interface Measured {
  variant: string;
  round: number;
  read: LoadResult;
  write: LoadResult;
  readCpu: CpuPerRequest;
  /** Until every write's webhook was delivered: the worker's share of a write is counted. */
  writeCpu: CpuPerRequest;
  /** The same, less each app's idle CPU over the same wall time (together mode's idle window). */
  readMarginal?: CpuPerRequest;
  writeMarginal?: CpuPerRequest;
  /** The three apps' CPU ms a second with no load, in this round's idle window. */
  idlePerSecond?: number;
  /** OTLP bytes the apps exported during the reads and writes. */
  traceBytes: number;
}

/**
 * `npm run bench -- observability`: what request ids, metrics and traces cost. The same
 * workload (GET /assets/{id}, then POST /assets whose events are delivered to a local
 * receiver) runs against the stack with tracing off (metrics are always on), with tracing on
 * (OTLP/HTTP to a local sink), and, with BENCH_BASELINE=<built checkout>, against another
 * version (e.g. the commit before issue 15: neither).
 *
 * Every variant's stack is started first and stays up; then the load goes to one stack at a
 * time, a short slice each, variant after variant, for BENCH_ROUNDS rounds in a rotated order.
 * On a shared virtual machine the same build's speed drifts by 20% and more over minutes, so
 * variants measured minutes apart differ by the drift; slices seconds apart, compared within
 * their round (the median of those ratios), differ mostly by what the variants cost. Beside
 * the rates it reports the CPU each app spent per answer (from /proc, writes counted until
 * their webhooks were delivered).
 */
export async function benchObservability(): Promise<void> {
  const variants = chosenVariants();
  if (TOGETHER && !RATES) throw new Error('BENCH_TOGETHER=1 needs BENCH_RATE=<GET/s>,<POST/s>');
  const stacks: Stack[] = [];
  const results: Measured[] = [];
  try {
    for (const [index, variant] of variants.entries()) {
      console.log(`starting ${variant.name}`);
      stacks.push(await startStack(variant, PORT + 10 * index));
    }
    for (let round = 1; round <= ROUNDS; round++) {
      results.push(...(TOGETHER ? await allAtOnce(stacks, round) : await inTurn(stacks, round)));
    }
  } finally {
    for (const stack of stacks) await stopStack(stack);
  }
  printTable(results, variants);
}

/**
 * One round with the same load on every stack at once, started in a rotated order, after a
 * window in which every stack is idle at the same time (BENCH_IDLE_SECONDS).
 */
async function allAtOnce(stacks: Stack[], round: number): Promise<Measured[]> {
  if (IDLE_SECONDS > 0) await measureIdle(stacks);
  const measured = await Promise.all(rotated(stacks, round).map((stack) => measure(stack, round)));
  for (const one of measured) {
    const marginal =
      one.readMarginal && one.writeMarginal
        ? ` (marginal ${one.readMarginal.apps.toFixed(3)} and ${one.writeMarginal.apps.toFixed(3)}; idle ${one.idlePerSecond?.toFixed(1)} ms/s)`
        : '';
    console.log(
      `round ${round}: ${one.variant}: ${one.readCpu.apps.toFixed(3)} CPU ms a GET, ${one.writeCpu.apps.toFixed(3)} a POST${marginal}`,
    );
  }
  return measured;
}

/** Each stack's apps' CPU ms a second while no stack has any load. */
async function measureIdle(stacks: Stack[]): Promise<void> {
  const started = performance.now();
  const samples = stacks.map((stack) => sampleCpu(stack.pids));
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const seconds = (performance.now() - started) / 1000;
  for (const [index, stack] of stacks.entries()) {
    const spent = samples[index]?.stop() ?? {};
    stack.idlePerSecond = Object.fromEntries(
      Object.entries(spent).map(([app, ms]) => [app, ms / seconds]),
    );
  }
}

/** One round of slices, stack after stack. */
async function inTurn(stacks: Stack[], round: number): Promise<Measured[]> {
  const measured: Measured[] = [];
  // Each round starts with the next variant: none is always first after an idle spell.
  for (const stack of rotated(stacks, round)) {
    const one = await measure(stack, round);
    console.log(
      `round ${round}: ${stack.variant.name}: ${Math.round(one.read.okPerSecond)} GET/s, ${Math.round(one.write.okPerSecond)} POST/s`,
    );
    measured.push(one);
  }
  return measured;
}

function chosenVariants(): Variant[] {
  const all: Variant[] = [
    ...(BASELINE
      ? [
          {
            key: 'baseline',
            name: `baseline (${path.basename(BASELINE)})`,
            env: {},
            root: BASELINE,
          },
        ]
      : []),
    { key: 'off', name: 'metrics on, tracing off', env: {}, root: REPO_ROOT },
    { key: 'on', name: 'metrics on, tracing on', env: {}, root: REPO_ROOT, traced: true },
    {
      // Tracing's fixed cost alone: the gateway samples nothing, so nothing else traces.
      key: 'unsampled',
      name: 'metrics on, tracing on, none sampled',
      env: { OTEL_TRACES_SAMPLER: 'always_off' },
      root: REPO_ROOT,
      traced: true,
    },
    {
      // What a busy deployment would run: one trace in ten, decided at the gateway.
      key: 'sampled',
      name: 'metrics on, tracing on, 10% sampled',
      env: {
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
      },
      root: REPO_ROOT,
      traced: true,
    },
  ];
  if (!ONLY) return all;
  // In the order given: the first is the reference, and stacks start in this order.
  return ONLY.map((key) => {
    const variant = all.find((one) => one.key === key);
    if (!variant)
      throw new Error(
        `BENCH_VARIANTS: no variant "${key}" (${all.map((one) => one.key).join(', ')})`,
      );
    return variant;
  });
}

/** One variant's apps, up and seeded, with a sink of its own for its traces and webhooks. */
interface Stack {
  variant: Variant;
  sink: Sink;
  env: BenchEnv;
  run: string;
  children: ChildProcess[];
  pids: Record<'gateway' | 'register' | 'webhook-worker', number>;
  url: string;
  headers: Record<string, string>;
  ids: string[];
  /** Webhooks the sink should have received once everything written so far is delivered. */
  expectedHooks: number;
  /** Each app's CPU ms a second with no load, from the latest idle window (together mode). */
  idlePerSecond?: Record<string, number>;
}

async function startStack(variant: Variant, port: number): Promise<Stack> {
  const sink = new Sink();
  await sink.start();
  const run = randomBytes(3).toString('hex');
  const env: BenchEnv = {
    ...benchStackEnv(run),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...(variant.traced ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } : {}),
    ...variant.env,
  };
  const stack: Stack = {
    variant,
    sink,
    env,
    run,
    children: [],
    pids: { gateway: 0, register: 0, 'webhook-worker': 0 },
    url: `http://127.0.0.1:${port}`,
    headers: {},
    ids: [],
    expectedHooks: 0,
  };
  try {
    Object.assign(stack, await startApps(env, port, variant.root));
    const tenant = await createTenant(env, `Bench observability ${variant.key}`, {
      scope: 'write',
      webhookUrl: `${sink.url}/hook`,
    });
    stack.headers = { authorization: `Bearer ${tenant.key.key}` };
    for (let i = 0; i < ASSETS; i++) {
      const response = await fetch(`${stack.url}/api/v1/assets`, {
        method: 'POST',
        headers: { ...stack.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Seed ${i}` }),
      });
      stack.ids.push(((await response.json()) as { id: string }).id);
    }
    stack.expectedHooks = ASSETS;
    // The seeding's deliveries are not the reads' work.
    await drained(sink, stack.expectedHooks);
  } catch (error) {
    // A stack that did not come up is taken down here: the caller never sees it to stop it.
    await stopStack(stack);
    throw error;
  }
  return stack;
}

async function measure(stack: Stack, round: number): Promise<Measured> {
  const { sink, pids, url, headers } = stack;
  const traceBytesBefore = sink.traceBytes;
  const readSample = sampleCpu(pids);
  const readStarted = performance.now();
  const read = await load({
    name: 'GET /assets/{id}',
    url,
    paths: stack.ids.map((id) => `/api/v1/assets/${id}`),
    headers,
    connections: CONNECTIONS,
    durationSeconds: SECONDS,
    overallRate: RATES?.[0],
  });
  const readSpent = readSample.stop();
  const readWallMs = performance.now() - readStarted;
  const reads = read.okPerSecond * SECONDS;
  const writeSample = sampleCpu(pids);
  const writeStarted = performance.now();
  const write = await load({
    name: 'POST /assets',
    url,
    paths: ['/api/v1/assets'],
    headers,
    connections: CONNECTIONS,
    durationSeconds: SECONDS,
    overallRate: RATES?.[1],
    postJson: JSON.stringify({ name: 'Bench asset', category: 'Laptops' }),
  });
  const written = Math.round(write.okPerSecond * SECONDS);
  stack.expectedHooks += written;
  await drained(sink, stack.expectedHooks);
  const writeSpent = writeSample.stop();
  const writeWallMs = performance.now() - writeStarted;
  const idle = stack.idlePerSecond;
  return {
    variant: stack.variant.name,
    round,
    read,
    write,
    readCpu: perRequest(readSpent, reads),
    writeCpu: perRequest(writeSpent, written),
    ...(idle
      ? {
          readMarginal: byApp(marginalCpuMs(readSpent, idle, readWallMs, reads)),
          writeMarginal: byApp(marginalCpuMs(writeSpent, idle, writeWallMs, written)),
          idlePerSecond: Object.values(idle).reduce((sum, ms) => sum + ms, 0),
        }
      : {}),
    traceBytes: sink.traceBytes - traceBytesBefore,
  };
}

async function stopStack(stack: Stack): Promise<void> {
  const { env } = stack;
  await stopAll(stack.children);
  await stack.sink.stop();
  await dropDatabase(`custodian_bench_${stack.run}`);
  await deleteBenchTopology(env);
}

/** Waits until the sink has received `hooks` webhooks, or DRAIN_MS has passed. */
async function drained(sink: Sink, hooks: number): Promise<void> {
  const deadline = Date.now() + DRAIN_MS;
  while (sink.hooks < hooks && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (sink.hooks < hooks) console.log(`  only ${sink.hooks} of ${hooks} webhooks delivered`);
}

function perRequest(spent: Record<string, number>, answers: number): CpuPerRequest {
  const per: Record<string, number> = {};
  for (const [name, ms] of Object.entries(spent)) per[name] = ms / Math.max(1, answers);
  return byApp(per);
}

/** Per-answer figures by process, as each app's and their sum. */
function byApp(perAnswer: Record<string, number>): CpuPerRequest {
  const gateway = perAnswer.gateway ?? 0;
  const register = perAnswer.register ?? 0;
  const worker = perAnswer['webhook-worker'] ?? 0;
  return { gateway, register, 'webhook-worker': worker, apps: gateway + register + worker };
}

function printTable(results: Measured[], variants: Variant[]): void {
  const cell = (run: LoadResult) =>
    `${Math.round(run.okPerSecond)} | ${run.p50} | ${run.p99} | ${run.errors + run.non2xx}`;
  console.log(
    `\n${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} round(s)${RATES ? `, offered ${RATES.join(' GET/s and ')} POST/s` : ''}${TOGETHER ? ' to every variant at once' : ''}; writes deliver a webhook each\n`,
  );
  const cpu = (spent: CpuPerRequest) =>
    `${spent.gateway.toFixed(2)} / ${spent.register.toFixed(2)} / ${spent['webhook-worker'].toFixed(2)}`;
  console.log(
    '| variant | GET 2xx/s | p50 ms | p99 ms | errors | CPU ms/req gw / reg / worker | marginal | POST 2xx/s | p50 ms | p99 ms | errors | CPU ms/req gw / reg / worker | marginal | trace KB exported |',
  );
  console.log(`|${' --- |'.repeat(14)}`);
  const marginal = (spent: CpuPerRequest | undefined) => (spent ? cpu(spent) : '');
  for (const result of results) {
    console.log(
      `| ${result.variant} | ${cell(result.read)} | ${cpu(result.readCpu)} | ${marginal(result.readMarginal)} | ${cell(result.write)} | ${cpu(result.writeCpu)} | ${marginal(result.writeMarginal)} | ${Math.round(result.traceBytes / 1024)} |`,
    );
  }
  const reference = variants[0]?.name ?? '';
  console.log(
    `\nMeans over the rounds, and the median over the rounds of each round's change against "${reference}" in the same round, with the middle half of those changes in brackets (CPU: the three apps' ms per 2xx answer):\n`,
  );
  printChanges(results, variants, [
    { title: 'GET 2xx/s', pick: (m) => m.read.okPerSecond, digits: 0 },
    { title: 'GET CPU ms', pick: (m) => m.readCpu.apps, digits: 3 },
    { title: 'POST 2xx/s', pick: (m) => m.write.okPerSecond, digits: 0 },
    { title: 'POST CPU ms', pick: (m) => m.writeCpu.apps, digits: 3 },
  ]);
  console.log(`\nThe same per app, CPU ms per 2xx answer:\n`);
  printChanges(results, variants, [
    { title: 'GET gateway', pick: (m) => m.readCpu.gateway, digits: 3 },
    { title: 'GET register', pick: (m) => m.readCpu.register, digits: 3 },
    { title: 'POST gateway', pick: (m) => m.writeCpu.gateway, digits: 3 },
    { title: 'POST register', pick: (m) => m.writeCpu.register, digits: 3 },
    { title: 'POST worker', pick: (m) => m.writeCpu['webhook-worker'], digits: 3 },
  ]);
  if (!results.some((result) => result.readMarginal)) return;
  console.log(
    `\nThe same, less each app's idle CPU over the same wall time (${IDLE_SECONDS} s idle window at the start of each round): the marginal cost of an answer, which is what bounds the requests a second at saturation:\n`,
  );
  printChanges(results, variants, [
    { title: 'idle CPU ms/s', pick: (m) => m.idlePerSecond ?? 0, digits: 1 },
    { title: 'GET marginal CPU ms', pick: (m) => m.readMarginal?.apps ?? 0, digits: 3 },
    { title: 'POST marginal CPU ms', pick: (m) => m.writeMarginal?.apps ?? 0, digits: 3 },
  ]);
}

interface Column {
  title: string;
  pick: (measured: Measured) => number;
  digits: number;
}

/** Per variant and column: the mean over the rounds, and the median change against the first. */
function printChanges(results: Measured[], variants: Variant[], columns: Column[]): void {
  const reference = variants[0]?.name ?? '';
  const runsOf = (name: string) => results.filter((result) => result.variant === name);
  console.log(`| variant | ${columns.map(({ title }) => `${title} | vs reference`).join(' | ')} |`);
  console.log(`| --- |${' --- | --- |'.repeat(columns.length)}`);
  for (const { name } of variants) {
    const runs = runsOf(name);
    const cells = columns.map(({ pick, digits }) => {
      const mean = runs.reduce((sum, run) => sum + pick(run), 0) / Math.max(1, runs.length);
      const ratios = runs.flatMap((run) => {
        const same = runsOf(reference).find((other) => other.round === run.round);
        return same && pick(same) > 0 ? [pick(run) / pick(same)] : [];
      });
      return `${mean.toFixed(digits)} | ${changeCell(ratios)}`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
}
