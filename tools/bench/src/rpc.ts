import { openConnection } from '@custodian/messaging';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RABBITMQ_URL, runNode, stopAll } from './processes';
import {
  DEFAULT_PREFETCH,
  RPC_ENV,
  waitForFile,
  type RpcRunResult,
  type RpcTransport,
} from './rpc-processes';
import { ASSET_REPLY_BYTES } from './rpc-workload';

const IN_FLIGHT = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PREFETCH = Number(process.env.RPC_PREFETCH ?? DEFAULT_PREFETCH);
/** CPU a handler spends per request on the server: a register-like one, and none. */
const HANDLER_MS = [0.2, 0];

interface Variant {
  name: string;
  server: string;
  transport: RpcTransport;
  env: Record<string, string>;
}

const VARIANTS: Variant[] = [
  {
    name: 'libs/messaging (noDelay)',
    server: 'tools/bench/src/rpc-server-messaging.js',
    transport: 'messaging',
    env: {},
  },
  {
    name: '@golevelup/nestjs-rabbitmq (noDelay)',
    server: 'tools/bench/src/rpc-server-golevelup.js',
    transport: 'golevelup',
    env: {},
  },
];

interface Row extends RpcRunResult {
  name: string;
  handlerMs: number;
}

/**
 * `npm run bench -- rpc`: the RPC transport alone. A server process answers `assets.get`
 * with a fixed asset; a client process keeps BENCH_CONNECTIONS requests in flight. Compares
 * libs/messaging with and without its write coalescing against @golevelup/nestjs-rabbitmq.
 */
export async function benchRpc(): Promise<void> {
  const run = randomBytes(3).toString('hex');
  const scratch = mkdtempSync(path.join(tmpdir(), 'custodian-bench-rpc-'));
  const rows: Row[] = [];
  try {
    for (const handlerMs of HANDLER_MS) {
      for (const variant of VARIANTS) {
        const id = `${run}.${rows.length}`;
        const result = await runVariant(variant, handlerMs, id, scratch);
        rows.push({ name: variant.name, handlerMs, ...result });
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  printTable(rows);
}

/** One server process and one client process on a queue of their own, deleted after. */
async function runVariant(
  variant: Variant,
  handlerMs: number,
  id: string,
  scratch: string,
): Promise<RpcRunResult> {
  const queue = `custodian.bench.rpc.${id}`;
  const exchange = `custodian.bench.rpc.${id}`;
  const readyFile = path.join(scratch, `${id}.ready`);
  const resultFile = path.join(scratch, `${id}.json`);
  const env: Record<string, string> = {
    ...variant.env,
    RABBITMQ_URL,
    [RPC_ENV.queue]: queue,
    [RPC_ENV.exchange]: exchange,
    [RPC_ENV.handlerMs]: String(handlerMs),
    [RPC_ENV.prefetch]: String(PREFETCH),
    [RPC_ENV.transport]: variant.transport,
    [RPC_ENV.readyFile]: readyFile,
    [RPC_ENV.resultFile]: resultFile,
  };
  const server = runNode(variant.server, env);
  const children = [server];
  try {
    await waitForFile(readyFile, server);
    const client = runNode('tools/bench/src/rpc-client.js', {
      ...env,
      [RPC_ENV.serverPid]: String(server.pid),
    });
    children.push(client);
    const code = await new Promise<number | null>((resolve) => client.once('exit', resolve));
    if (code !== 0) throw new Error(`${variant.name}: the client exited with ${code}`);
    return JSON.parse(readFileSync(resultFile, 'utf8')) as RpcRunResult;
  } finally {
    await stopAll(children);
    await deleteTopology(queue, exchange);
  }
}

async function deleteTopology(queue: string, exchange: string): Promise<void> {
  const connection = await openConnection(RABBITMQ_URL, 'custodian-bench');
  try {
    const channel = await connection.createChannel();
    await channel.deleteQueue(queue);
    await channel.deleteExchange(exchange);
  } finally {
    await connection.close();
  }
}

function printTable(rows: Row[]): void {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(
    `\nRPC transport alone (assets.get, ${ASSET_REPLY_BYTES}-byte reply): ${IN_FLIGHT} requests ` +
      `in flight, prefetch ${PREFETCH}, ${SECONDS} s per run\n`,
  );
  const header = ['transport', 'handler CPU ms', 'req/s', 'p50 ms', 'p99 ms'];
  console.log(line([...header, 'server CPU µs/req', 'client CPU µs/req', 'errors']));
  console.log(line(new Array<string>(8).fill('---')));
  for (const row of rows) {
    const perRequest = (ms: number) => ((1000 * ms) / Math.max(1, row.requests)).toFixed(0);
    console.log(
      line([
        row.name,
        String(row.handlerMs),
        (row.requests / row.seconds).toFixed(0),
        row.p50.toFixed(2),
        row.p99.toFixed(2),
        perRequest(row.serverCpuMs),
        perRequest(row.clientCpuMs),
        String(row.errors),
      ]),
    );
  }
}
