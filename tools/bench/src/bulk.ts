import {
  WorkerAdminPatterns,
  type BulkAssetReply,
  type CreatedWebhookView,
} from '@custodian/contracts';
import { RmqRpcClient } from '@custodian/messaging';
import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { Receiver } from './audit';
import {
  RABBITMQ_URL,
  benchStackEnv,
  deleteBenchTopology,
  dropDatabase,
  startApps,
  stopAll,
  type BenchEnv,
} from './processes';
import { createTenant } from './tenant';

/**
 * Issue 35, item 6: a bulk change of 1,000 assets of a workspace holding 10,000, through
 * `POST /api/v1/assets/bulk` on the whole stack (gateway, register, webhook-worker from
 * dist). For each action: the request's time, and the webhooks a real local receiver got
 * (every event of every changed asset, each once) and how long after the request the last
 * arrived.
 *
 *   npm run bench -- bulk
 *   BENCH_BULK_ASSETS=20000 BENCH_BULK_IDS=1000 npm run bench -- bulk
 */
const ASSETS = Number(process.env.BENCH_BULK_ASSETS ?? 10_000);
const IDS = Number(process.env.BENCH_BULK_IDS ?? 1_000);
const GATEWAY_PORT = 3240;
const EVENTS = [
  'asset.updated',
  'assignment.checked_out',
  'assignment.checked_in',
  'asset.deleted',
];

export async function benchBulk(): Promise<void> {
  const run = `bulk_${Date.now()}`;
  const env: BenchEnv = benchStackEnv(run);
  const receiver = new Receiver();
  await receiver.start();
  let children: ChildProcess[] = [];
  const database = new Client({ connectionString: env.DATABASE_URL });
  try {
    ({ children } = await startApps(env, GATEWAY_PORT));
    await database.connect();
    const tenant = await createTenant(env, 'Bulk bench', { scope: 'write' });
    const base = `http://127.0.0.1:${GATEWAY_PORT}/api/v1`;
    const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${tenant.key.key}`,
          'content-type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    };
    await subscribe(env, tenant.workspace.id, `http://127.0.0.1:${receiver.port}/bulk`);
    await seed(database, tenant.workspace.id, ASSETS);
    const person = await api<{ id: string }>('POST', '/people', {
      full_name: 'Bench Holder',
      email: 'holder@bench.example',
    });
    // Every 10th asset: spread over the table, sent in no particular order.
    const ids = Array.from(
      { length: IDS },
      (_, n) =>
        `ast_bench${String(((n * 7919) % IDS) * Math.floor(ASSETS / IDS) + 1).padStart(20, '0')}`,
    );

    const rows: string[] = [];
    const step = async (name: string, body: Record<string, unknown>, expected: number) => {
      const before = new Map(EVENTS.map((event) => [event, receiver.counts.get(event) ?? 0]));
      const startedAt = Date.now();
      const asked = performance.now();
      const reply = await api<BulkAssetReply>('POST', '/assets/bulk', { ids, ...body });
      const ms = performance.now() - asked;
      const got = () =>
        EVENTS.reduce(
          (sum, event) => sum + (receiver.counts.get(event) ?? 0) - (before.get(event) ?? 0),
          0,
        );
      const deadline = Date.now() + 300_000;
      while (got() < expected && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // A moment more: anything beyond the expected count would be a duplicate.
      await new Promise((resolve) => setTimeout(resolve, expected > 0 ? 1_000 : 2_000));
      const last = Math.max(...EVENTS.map((event) => receiver.last.get(event) ?? 0));
      const lastMs = expected > 0 ? `${last - startedAt}` : '-';
      rows.push(
        `| ${name} | ${Math.round(ms)} | ${JSON.stringify(reply.counts)} | ${expected} | ` +
          `${got()} | ${lastMs} |`,
      );
    };
    await step('update status → retired', { action: 'update', status: 'retired' }, IDS);
    await step('same again (unchanged)', { action: 'update', status: 'retired' }, 0);
    await step('check_out to a person', { action: 'check_out', person_id: person.id }, 2 * IDS);
    await step('check_in', { action: 'check_in' }, 2 * IDS);
    await step('delete (to the bin)', { action: 'delete' }, IDS);

    console.log('');
    console.log(`bulk change of ${IDS} of ${ASSETS} assets (POST /api/v1/assets/bulk, one call)`);
    console.log(
      '| action | request ms | counts | events expected | events received | request → last event ms |',
    );
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const row of rows) console.log(row);
  } finally {
    await database.end().catch(() => undefined);
    await stopAll(children);
    await receiver.stop();
    await deleteBenchTopology(env);
    await dropDatabase(`custodian_bench_${run}`);
  }
}

async function subscribe(env: BenchEnv, workspace: string, url: string): Promise<void> {
  const worker = new RmqRpcClient({
    url: RABBITMQ_URL,
    queue: env.WORKER_ADMIN_QUEUE,
    timeoutMs: 10_000,
    connectionName: 'custodian-bench',
    serviceName: 'webhook-worker',
  });
  await worker.connect();
  try {
    await worker.request<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
      workspace,
      url,
      events: EVENTS.join(','),
    });
  } finally {
    await worker.close();
  }
}

/** `count` assets `ast_bench<20 digits>`, tagged `BB-...`; the workspace counts them. */
async function seed(db: Client, workspace: string, count: number): Promise<void> {
  await db.query(
    `INSERT INTO register.assets (id, workspace_id, name, asset_tag)
     SELECT 'ast_bench' || lpad(g::text, 20, '0'), $1, 'Asset ' || g, 'BB-' || lpad(g::text, 6, '0')
       FROM generate_series(1, $2::int) g`,
    [workspace, count],
  );
  await db.query(
    `UPDATE register.workspace_counters SET asset_count = asset_count + $2 WHERE workspace_id = $1`,
    [workspace, count],
  );
}
