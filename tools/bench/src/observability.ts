import { heavyLaneOf } from '@custodian/contracts';
import { deleteTopology } from '@custodian/messaging';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { load, type LoadResult } from './load';
import {
  POSTGRES,
  RABBITMQ_URL,
  REPO_ROOT,
  benchEnv,
  runNode,
  stopAll,
  waitForHttp,
  type BenchEnv,
} from './processes';
import { createTenant } from './tenant';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Assets created before the reads, which cycle through them. */
const ASSETS = 500;
/** Another checkout of this repo, built, to run as the baseline (e.g. before issue 15). */
const BASELINE = process.env.BENCH_BASELINE;
const PORT = 3230;

interface Variant {
  name: string;
  env: Record<string, string>;
  root: string;
}

interface Measured {
  variant: string;
  read: LoadResult;
  write: LoadResult;
  spans: number;
}

/**
 * A stand-in for an OpenTelemetry collector and a webhook receiver in one: answers every POST
 * at once with 200, counting the spans the apps export, so the bench measures the apps' cost
 * of producing and sending them, not a collector's.
 */
class Sink {
  spans = 0;
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/v1/traces') {
          // Counting span ids is cheaper than parsing the export and close enough.
          this.spans += Buffer.concat(chunks).toString().split('"spanId"').length - 1;
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/**
 * `npm run bench -- observability`: what request ids, metrics and traces cost. The same
 * workload (GET /assets/{id}, then POST /assets whose events are delivered to a local
 * receiver) runs against the stack with tracing off (metrics are always on), with tracing on
 * (OTLP/HTTP to a local sink), and, with BENCH_BASELINE=<built checkout>, against another
 * version (e.g. the commit before issue 15: neither). Variants alternate for BENCH_ROUNDS
 * rounds, each round in a rotated order, so the machine's drift falls on all of them alike.
 */
export async function benchObservability(): Promise<void> {
  const sink = new Sink();
  await sink.start();
  const variants: Variant[] = [
    ...(BASELINE
      ? [{ name: `baseline (${path.basename(BASELINE)})`, env: {}, root: BASELINE }]
      : []),
    { name: 'metrics on, tracing off', env: {}, root: REPO_ROOT },
    {
      name: 'metrics on, tracing on',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
      root: REPO_ROOT,
    },
    {
      // What a busy deployment would run: one trace in ten, decided at the gateway.
      name: 'metrics on, tracing on, 10% sampled',
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
      },
      root: REPO_ROOT,
    },
  ];
  const results: Measured[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      // Each round starts with the next variant: no variant is always first (or last) after a
      // fresh database and a cold broker.
      const order = variants.map((_, i) => variants[(i + round - 1) % variants.length]);
      for (const variant of order) {
        if (!variant) continue;
        console.log(`round ${round}: ${variant.name}`);
        results.push(await measure(variant, sink));
      }
    }
  } finally {
    await sink.stop();
  }
  printTable(results, variants);
}

async function measure(variant: Variant, sink: Sink): Promise<Measured> {
  const run = randomBytes(3).toString('hex');
  const env: BenchEnv = {
    ...benchEnv(run),
    EVENTS_EXCHANGE: `custodian.events.bench.${run}`,
    EVENTS_DEAD_LETTER_EXCHANGE: `custodian.events.dead.bench.${run}`,
    EVENTS_DEAD_LETTER_QUEUE: `custodian.events.dead.bench.${run}`,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...variant.env,
  };
  const children: ChildProcess[] = [];
  try {
    for (const app of ['gateway', 'register', 'webhook-worker']) {
      const migration = runNode(`apps/${app}/src/migrate.js`, env, variant.root);
      await new Promise((resolve) => migration.once('exit', resolve));
    }
    children.push(
      runNode('apps/register/src/main.js', { ...env, HEALTH_PORT: String(PORT + 1) }, variant.root),
      runNode(
        'apps/gateway/src/main.js',
        { ...env, PORT: String(PORT), HEALTH_PORT: String(PORT + 3) },
        variant.root,
      ),
      runNode(
        'apps/webhook-worker/src/main.js',
        { ...env, HEALTH_PORT: String(PORT + 2) },
        variant.root,
      ),
    );
    for (const port of [PORT, PORT + 1, PORT + 2])
      await waitForHttp(`http://127.0.0.1:${port}/health`);
    const tenant = await createTenant(env, 'Bench observability', {
      scope: 'write',
      webhookUrl: `${sink.url}/hook`,
    });
    const url = `http://127.0.0.1:${PORT}`;
    const headers = { authorization: `Bearer ${tenant.key.key}` };
    const ids: string[] = [];
    for (let i = 0; i < ASSETS; i++) {
      const response = await fetch(`${url}/api/v1/assets`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Seed ${i}` }),
      });
      ids.push(((await response.json()) as { id: string }).id);
    }
    const spansBefore = sink.spans;
    const read = await load({
      name: 'GET /assets/{id}',
      url,
      paths: ids.map((id) => `/api/v1/assets/${id}`),
      headers,
      connections: CONNECTIONS,
      durationSeconds: SECONDS,
    });
    const write = await load({
      name: 'POST /assets',
      url,
      paths: ['/api/v1/assets'],
      headers,
      connections: CONNECTIONS,
      durationSeconds: SECONDS,
      postJson: JSON.stringify({ name: 'Bench asset', category: 'Laptops' }),
    });
    return { variant: variant.name, read, write, spans: sink.spans - spansBefore };
  } finally {
    await stopAll(children);
    await dropDatabase(`custodian_bench_${run}`);
    await deleteTopology(RABBITMQ_URL, 'custodian-bench-cleanup', {
      queues: [
        env.REGISTER_QUEUE,
        heavyLaneOf(env.REGISTER_QUEUE),
        env.REGISTER_ADMIN_QUEUE,
        env.ADMIN_QUEUE,
        env.EVENTS_QUEUE,
        env.WORKER_ADMIN_QUEUE,
        env.EVENTS_DEAD_LETTER_QUEUE ?? '',
      ],
      exchanges: [env.EVENTS_EXCHANGE ?? '', env.EVENTS_DEAD_LETTER_EXCHANGE ?? ''],
    });
  }
}

async function dropDatabase(database: string): Promise<void> {
  const client = new Client({ connectionString: `${POSTGRES}/postgres` });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await client.end();
}

function printTable(results: Measured[], variants: Variant[]): void {
  const cell = (run: LoadResult) =>
    `${Math.round(run.okPerSecond)} | ${run.p50} | ${run.p99} | ${run.errors + run.non2xx}`;
  console.log(
    `\n${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} round(s); writes deliver a webhook each\n`,
  );
  console.log(
    '| variant | GET 2xx/s | p50 ms | p99 ms | errors | POST 2xx/s | p50 ms | p99 ms | errors | spans exported |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const result of results) {
    console.log(
      `| ${result.variant} | ${cell(result.read)} | ${cell(result.write)} | ${result.spans} |`,
    );
  }
  const mean = (name: string, pick: (m: Measured) => number) => {
    const runs = results.filter((result) => result.variant === name).map(pick);
    return runs.reduce((sum, value) => sum + value, 0) / Math.max(1, runs.length);
  };
  const reference = variants[0]?.name ?? '';
  console.log(`\nMean 2xx/s over the rounds, and against "${reference}":\n`);
  console.log('| variant | GET 2xx/s | vs reference | POST 2xx/s | vs reference |');
  console.log('| --- | --- | --- | --- | --- |');
  const refRead = mean(reference, (m) => m.read.okPerSecond);
  const refWrite = mean(reference, (m) => m.write.okPerSecond);
  for (const { name } of variants) {
    const readRate = mean(name, (m) => m.read.okPerSecond);
    const writeRate = mean(name, (m) => m.write.okPerSecond);
    const change = (value: number, base: number) =>
      `${value >= base ? '+' : ''}${(((value - base) / base) * 100).toFixed(1)}%`;
    console.log(
      `| ${name} | ${Math.round(readRate)} | ${change(readRate, refRead)} | ${Math.round(writeRate)} | ${change(writeRate, refWrite)} |`,
    );
  }
}
