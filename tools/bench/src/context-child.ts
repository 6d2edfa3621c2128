// One mode of `npm run bench -- context`, in a process of its own: tracing, once started,
// cannot be taken back, and pg must be loaded after it for its instrumentation to apply.
import {
  REQUEST_ID_HEADER,
  runInMessageContext,
  inSpan,
  rpcServerDuration,
  startTracing,
  stopTracing,
} from '@custodian/observability';
import { SpanKind } from '@opentelemetry/api';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { CONTEXT_MODES, type ContextMode, type ContextResult } from './context-modes';

const mode = process.env.BENCH_CONTEXT_MODE as ContextMode;
const out = process.env.BENCH_CONTEXT_OUT ?? '';
const units = Number(process.env.BENCH_CONTEXT_UNITS ?? 5000);

/** What a message carries in each mode: nothing, a request id, and a trace sampled or not. */
function carried(): Record<string, string> | undefined {
  if (mode === 'none') return undefined;
  const id = { [REQUEST_ID_HEADER]: randomUUID() };
  if (mode === 'request-id') return id;
  const flags = mode === 'traced-sampled' ? '01' : '00';
  const traceparent = `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-${flags}`;
  return { ...id, traceparent };
}

async function main(): Promise<void> {
  if (!CONTEXT_MODES.includes(mode)) throw new Error(`BENCH_CONTEXT_MODE: no mode "${mode}"`);
  if (mode.startsWith('traced')) startTracing('bench-context');
  // After tracing: pg's instrumentation patches the module as it is loaded.
  const { Pool } = await import('pg');
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  // What the register does for a GET: a pool checkout and a query; from issue 15 on, in the
  // request's context, under its RPC span when there is one, and timed in the RPC histogram.
  const work = async () => {
    const client = await pool.connect();
    try {
      await client.query('SELECT $1::int AS id, now() AS at', [1]);
    } finally {
      client.release();
    }
  };
  // Made before the clock starts: they stand for what arrives with each message.
  const carriers = Array.from({ length: units }, carried);
  const unit = (i: number) => {
    const context = carriers[i];
    if (context === undefined) return work();
    return runInMessageContext(context, () =>
      inSpan('rpc assets.get', { kind: SpanKind.SERVER }, async () => {
        const started = performance.now();
        await work();
        rpcServerDuration.observe(
          { queue: 'custodian.register', pattern: 'assets.get', outcome: 'ok' },
          (performance.now() - started) / 1000,
        );
      }),
    );
  };
  for (let i = 0; i < units / 2; i++) await unit(i);
  const before = process.cpuUsage();
  for (let i = 0; i < units; i++) await unit(i);
  const used = process.cpuUsage(before);
  // Exporting what was sampled is part of the cost: flushed before the clock stops.
  await stopTracing();
  const withExport = process.cpuUsage(before);
  await pool.end();
  const result: ContextResult = {
    mode,
    microsPerUnit: (used.user + used.system) / units,
    microsPerUnitWithExport: (withExport.user + withExport.system) / units,
  };
  writeFileSync(out, JSON.stringify(result));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
