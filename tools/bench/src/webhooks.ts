import {
  GatewayAdminPatterns,
  WorkerAdminPatterns,
  type CreatedWebhookView,
  type WorkspaceView,
} from '@custodian/contracts';
import { RmqRpcClient } from '@custodian/messaging';
import { sign } from '@custodian/webhook-signature';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { Agent, request } from 'undici';
import {
  RABBITMQ_URL,
  benchStackEnv,
  deleteBenchTopology,
  dropDatabase,
  startApps,
  stopAll,
  type BenchEnv,
} from './processes';
import { quantile } from './quantile';
import { createTenant as createBenchTenant } from './tenant';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const PACED_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** The worker's per-endpoint cap (its default, 10): the concurrency one endpoint gets. */
const CONCURRENCY = Number(process.env.BENCH_PER_ENDPOINT ?? 10);
/** The gateway's API; the health ports follow it (startApps). */
const GATEWAY_PORT = 3210;
/** The many-tenant run: workspaces, how many of them have only dead endpoints, and how many. */
const TENANTS = Number(process.env.BENCH_TENANTS ?? 100);
const DEAD_TENANTS = Number(process.env.BENCH_DEAD_TENANTS ?? 5);
const DEAD_ENDPOINTS = Number(process.env.BENCH_DEAD_ENDPOINTS ?? 4);
/** Events written one at a time, this far apart: what a quiet workspace's event waits. */
const LONE = Number(process.env.BENCH_LONE ?? 20);
const LONE_GAP_MS = Number(process.env.BENCH_LONE_GAP_MS ?? 250);

interface Row {
  name: string;
  events: number;
  delivered: number;
  perSecond: number;
  p50: number;
  p99: number;
  duplicates: number;
}

/** When an event reached each stage, in ms after its outbox created_at (cumulative). */
interface Stages {
  name: string;
  /** stage → sorted latencies. */
  at: Record<StageName, number[]>;
  /** stage → ms from the run's start until the last event reached it. */
  last: Record<StageName, number>;
}

const STAGE_NAMES = ['relayed', 'stored', 'sent', 'received'] as const;
type StageName = (typeof STAGE_NAMES)[number];

interface Seen {
  created: number;
  received: number[];
}

/** Records, per path, when each event (by id) arrived and when it was created. */
class Receiver {
  /** path → event id → [created, received...] in ms since the epoch. */
  readonly seen = new Map<string, Map<string, Seen>>();
  /** Requests to paths under /dead are never answered (a receiver that accepts and hangs). */
  deadRequests = 0;
  private server: Server | null = null;
  port = 0;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/dead')) {
        this.deadRequests++;
        req.resume();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const received = Date.now();
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          id: string;
          created_at: string;
        };
        const path = req.url ?? '/';
        const events = this.seen.get(path) ?? new Map<string, Seen>();
        this.seen.set(path, events);
        const entry = events.get(body.id) ?? {
          created: Date.parse(body.created_at),
          received: [],
        };
        entry.received.push(received);
        events.set(body.id, entry);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    server.keepAliveTimeout = 10_000;
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  count(path: string, prefix: string): number {
    let n = 0;
    for (const id of this.seen.get(path)?.keys() ?? []) if (id.startsWith(prefix)) n++;
    return n;
  }

  /** Throughput from `startedAt` to the last receipt, and created → first receipt latency. */
  summarize(name: string, path: string, prefix: string, events: number, startedAt: number): Row {
    const latencies: number[] = [];
    let last = startedAt;
    let duplicates = 0;
    for (const [id, entry] of this.seen.get(path) ?? []) {
      if (!id.startsWith(prefix)) continue;
      const [first = NaN] = entry.received;
      latencies.push(first - entry.created);
      last = Math.max(last, first);
      duplicates += entry.received.length - 1;
    }
    latencies.sort((a, b) => a - b);
    const at = (q: number) => quantile(latencies, q);
    return {
      name,
      events,
      delivered: latencies.length,
      perSecond: latencies.length / Math.max(0.001, (last - startedAt) / 1000),
      p50: at(0.5),
      p99: at(0.99),
      duplicates,
    };
  }

  /** When each event of `prefix` was first received, in ms since the epoch. */
  firstReceipts(path: string, prefix: string): Map<string, number> {
    const firsts = new Map<string, number>();
    for (const [id, entry] of this.seen.get(path) ?? []) {
      const [first] = entry.received;
      if (id.startsWith(prefix) && first !== undefined) firsts.set(id, first);
    }
    return firsts;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * `npm run bench -- webhooks`: events written to the register's outbox, through the relay,
 * RabbitMQ, fan-out and the delivery scheduler, to a local receiver — against undici posting
 * the same signed bodies straight to it at the same concurrency.
 */
export async function benchWebhooks(): Promise<void> {
  const run = randomBytes(3).toString('hex');
  const env: BenchEnv = {
    ...benchStackEnv(run),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    DELIVERY_PER_ENDPOINT: String(CONCURRENCY),
  };
  const receiver = new Receiver();
  await receiver.start();
  let children: ChildProcess[] = [];
  const db = new Client({ connectionString: env.DATABASE_URL });
  try {
    children = (await startApps(env, GATEWAY_PORT)).children;
    await db.connect();

    const { workspace, endpoint } = await createTenant(env, receiver.url('/hook'));
    const rows: Row[] = [];
    const stages: Stages[] = [];

    // Warm-up: plans cached, connections open, relay and scheduler polling.
    await insertEvents(db, workspace.id, 'evt_warm_', 20);
    await until(() => receiver.count('/hook', 'evt_warm_') >= 20, 30_000);

    // 1. A burst: EVENTS outbox rows in one statement, delivered as fast as the path can.
    const burstStart = Date.now();
    await insertEvents(db, workspace.id, 'evt_burst_', EVENTS);
    await until(
      () => receiver.count('/hook', 'evt_burst_') >= EVENTS,
      Math.max(60_000, EVENTS * 200),
    );
    rows.push(
      receiver.summarize(
        `full path, burst of ${EVENTS}`,
        '/hook',
        'evt_burst_',
        EVENTS,
        burstStart,
      ),
    );
    stages.push(await stageTimes(db, receiver, `burst of ${EVENTS}`, 'evt_burst_', burstStart));

    // 2. Paced: RATE events a second for PACED_SECONDS, each row's created_at its own.
    const paced = RATE * PACED_SECONDS;
    const pacedStart = Date.now();
    for (let written = 0; written < paced;) {
      const due = Math.min(paced, Math.floor(((Date.now() - pacedStart) / 1000) * RATE));
      if (due > written) {
        await insertEvents(db, workspace.id, 'evt_paced_', due - written, written);
        written = due;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await until(
      () => receiver.count('/hook', 'evt_paced_') >= paced,
      Math.max(60_000, paced * 200),
    );
    rows.push(
      receiver.summarize(
        `full path, ${RATE} events/s for ${PACED_SECONDS} s`,
        '/hook',
        'evt_paced_',
        paced,
        pacedStart,
      ),
    );
    stages.push(await stageTimes(db, receiver, `${RATE} events/s`, 'evt_paced_', pacedStart));
    // 2b. Lone events: each written by itself on an idle path, so nothing is batched and
    // the relay's wake-up (at commit, or at its poll) is the whole wait.
    const loneStart = Date.now();
    for (let i = 0; i < LONE; i++) {
      await insertEvents(db, workspace.id, 'evt_lone_', 1, i);
      await new Promise((resolve) => setTimeout(resolve, LONE_GAP_MS));
    }
    await until(() => receiver.count('/hook', 'evt_lone_') >= LONE, 60_000);
    rows.push(
      receiver.summarize(
        `full path, ${LONE} lone events ${LONE_GAP_MS} ms apart`,
        '/hook',
        'evt_lone_',
        LONE,
        loneStart,
      ),
    );
    stages.push(await stageTimes(db, receiver, `${LONE} lone events`, 'evt_lone_', loneStart));
    const { rows: states } = await db.query<{ status: string; n: string }>(
      `SELECT status, count(*) AS n FROM delivery.deliveries GROUP BY status`,
    );

    // 3. The raw limit: the same signed bodies, straight from undici, same concurrency.
    const raw = new Agent({ keepAliveTimeout: 4_000 });
    const rawBurstStart = Date.now();
    await postAll(
      raw,
      receiver.url('/raw'),
      endpoint.secret,
      Array.from({ length: EVENTS }, (_, i) => envelope(`evt_rawburst_${i}`, rawBurstStart)),
    );
    rows.push(
      receiver.summarize(
        `raw undici, burst of ${EVENTS}`,
        '/raw',
        'evt_rawburst_',
        EVENTS,
        rawBurstStart,
      ),
    );
    const rawPacedStart = Date.now();
    const bodies: string[] = [];
    const sending = postAll(
      raw,
      receiver.url('/raw'),
      endpoint.secret,
      bodies,
      () => bodies.length < paced,
    );
    for (let written = 0; written < paced;) {
      const due = Math.min(paced, Math.floor(((Date.now() - rawPacedStart) / 1000) * RATE));
      while (written < due) bodies.push(envelope(`evt_rawpaced_${written++}`, Date.now()));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await sending;
    await raw.close();
    rows.push(
      receiver.summarize(
        `raw undici, ${RATE} events/s for ${PACED_SECONDS} s`,
        '/raw',
        'evt_rawpaced_',
        paced,
        rawPacedStart,
      ),
    );

    // 4. Many tenants: TENANTS workspaces, DEAD_TENANTS of them with only endpoints that
    // accept and never answer; a burst to all of them at once. What counts is how the healthy
    // ones fare next to the dead ones' backlog.
    const tenants = await createTenants(env, receiver, TENANTS, DEAD_TENANTS, DEAD_ENDPOINTS);
    const healthy = tenants.filter((tenant) => !tenant.dead).map((tenant) => tenant.id);
    const dead = tenants.filter((tenant) => tenant.dead).map((tenant) => tenant.id);
    const perTenant = Math.max(1, Math.floor(EVENTS / Math.max(1, healthy.length)));
    const tenantsStart = Date.now();
    // The dead ones' events first: their backlog is the oldest, as it would be in production.
    await insertTenantEvents(db, dead, 'evt_deadburst_', perTenant);
    await insertTenantEvents(db, healthy, 'evt_tenants_', perTenant);
    await until(
      () => receiver.count('/tenant', 'evt_tenants_') >= healthy.length * perTenant,
      Math.max(60_000, EVENTS * 200),
    );
    rows.push(
      receiver.summarize(
        `${TENANTS} workspaces (${DEAD_TENANTS} with ${DEAD_ENDPOINTS} dead endpoints), ` +
          `burst of ${perTenant} each: the ${healthy.length} healthy`,
        '/tenant',
        'evt_tenants_',
        healthy.length * perTenant,
        tenantsStart,
      ),
    );

    printTable(rows, states);
    console.log(
      `requests to dead endpoints (accepted, never answered) during the run: ${receiver.deadRequests}`,
    );
    // By name, not position: a run added between them once made this compare the wrong rows.
    const burst = rows.find((row) => row.name.startsWith('full path, burst'));
    const rawBurst = rows.find((row) => row.name.startsWith('raw undici, burst'));
    if (burst && rawBurst) {
      console.log(
        `burst through the full path as a share of raw undici: ` +
          `${((burst.perSecond / rawBurst.perSecond) * 100).toFixed(0)}%`,
      );
    }
    printStages(stages);
  } finally {
    await db.end().catch(() => undefined);
    await stopAll(children);
    await receiver.stop();
    await dropDatabase(`custodian_bench_${run}`);
    await deleteBenchTopology(env);
  }
}

/** The gateway's and the worker's admin queues, as the admin CLI reaches them. */
async function adminClients(env: BenchEnv) {
  const client = (queue: string, serviceName: string) =>
    new RmqRpcClient({
      url: RABBITMQ_URL,
      queue,
      timeoutMs: 10_000,
      connectionName: 'custodian-bench',
      serviceName,
    });
  const gateway = client(env.ADMIN_QUEUE, 'gateway');
  const worker = client(env.WORKER_ADMIN_QUEUE, 'webhook-worker');
  await gateway.connect();
  await worker.connect();
  return { gateway, worker };
}

/** The bench's workspace, with limits lifted, and its endpoint to the receiver's `url`. */
async function createTenant(env: BenchEnv, url: string) {
  const { workspace, endpoint } = await createBenchTenant(env, 'Bench', { webhookUrl: url });
  if (!endpoint) throw new Error('the bench endpoint was not created');
  return { workspace, endpoint };
}

interface Tenant {
  id: string;
  dead: boolean;
}

/**
 * `count` workspaces, each with one endpoint to the receiver's /tenant; the first `dead` of
 * them instead with `deadEndpoints` endpoints under /dead, which never answer.
 */
async function createTenants(
  env: BenchEnv,
  receiver: Receiver,
  count: number,
  dead: number,
  deadEndpoints: number,
): Promise<Tenant[]> {
  const { gateway, worker } = await adminClients(env);
  try {
    const tenants: Tenant[] = [];
    for (let i = 0; i < count; i++) {
      const workspace = await gateway.request<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
        name: `Tenant ${i}`,
        plan: 'enterprise',
      });
      const isDead = i < dead;
      for (let e = 0; e < (isDead ? deadEndpoints : 1); e++) {
        await worker.request<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
          workspace: workspace.id,
          url: receiver.url(isDead ? `/dead/${i}/${e}` : '/tenant'),
          events: '*',
        });
      }
      tenants.push({ id: workspace.id, dead: isDead });
    }
    return tenants;
  } finally {
    await gateway.close();
    await worker.close();
  }
}

/** `perWorkspace` asset.created outbox rows for each workspace, in one statement. */
async function insertTenantEvents(
  db: Client,
  workspaceIds: string[],
  prefix: string,
  perWorkspace: number,
): Promise<void> {
  await db.query(
    `INSERT INTO register.outbox (id, workspace_id, event, data)
     SELECT $1 || w.n || '_' || g, w.id, 'asset.created',
       $2::jsonb || jsonb_build_object('id', 'ast_' || w.n || '_' || g)
     FROM unnest($3::text[]) WITH ORDINALITY AS w (id, n), generate_series(1, $4::int) g`,
    [prefix, JSON.stringify(DATA), workspaceIds, perWorkspace],
  );
}

const DATA = {
  name: 'Bench laptop',
  sku: 'SKU-1',
  status: 'active',
  brand: 'Brand-1',
  model: 'Model 1',
  serial_number: 'SN-00000001',
  asset_tag: 'AT-000001',
};

/** `count` asset.created outbox rows in one statement; the relay publishes them. */
async function insertEvents(
  db: Client,
  workspaceId: string,
  prefix: string,
  count: number,
  from = 0,
): Promise<void> {
  await db.query(
    `INSERT INTO register.outbox (id, workspace_id, event, data)
     SELECT $1 || g, $2, 'asset.created', $3::jsonb || jsonb_build_object('id', 'ast_' || g)
     FROM generate_series($4::int, $5::int) g`,
    [prefix, workspaceId, JSON.stringify(DATA), from, from + count - 1],
  );
}

/** The envelope the worker sends, for the raw run. */
function envelope(id: string, created: number): string {
  return JSON.stringify({
    id,
    event: 'asset.created',
    created_at: new Date(created).toISOString(),
    data: { ...DATA, id: `ast_${id}` },
  });
}

/**
 * POSTs `bodies` signed as the worker signs them, CONCURRENCY at a time. While `more` says
 * so, waits for bodies still to be added.
 */
async function postAll(
  agent: Agent,
  url: string,
  secret: string,
  bodies: string[],
  more?: () => boolean,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (;;) {
      if (next >= bodies.length) {
        if (!more?.()) return;
        await new Promise((resolve) => setTimeout(resolve, 1));
        continue;
      }
      const body = bodies[next++];
      if (body === undefined) continue;
      const timestamp = Math.floor(Date.now() / 1000);
      const response = await request(url, {
        method: 'POST',
        dispatcher: agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Custodian-Webhooks/1.0',
          'x-custodian-event': 'asset.created',
          'x-custodian-delivery': `dlv_raw_${next}`,
          'x-custodian-timestamp': String(timestamp),
          'x-custodian-signature': sign(secret, timestamp, body),
        },
        body,
      });
      await response.body.text();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
}

/**
 * Where the time goes: for each event, when the relay claimed its outbox row (published_at),
 * when its delivery row was stored (deliveries.created_at), when the first attempt started and
 * when the receiver got it, each from the outbox created_at. Postgres and the receiver share
 * this machine's clock.
 */
async function stageTimes(
  db: Client,
  receiver: Receiver,
  name: string,
  prefix: string,
  startedAt: number,
): Promise<Stages> {
  const { rows } = await db.query<{
    id: string;
    created: number;
    relayed: number;
    stored: number;
    sent: number | null;
  }>(
    `SELECT o.id,
            extract(epoch FROM o.created_at) * 1000 AS created,
            extract(epoch FROM o.published_at) * 1000 AS relayed,
            extract(epoch FROM d.created_at) * 1000 AS stored,
            extract(epoch FROM a.started_at) * 1000 AS sent
     FROM register.outbox o
     JOIN delivery.deliveries d ON d.event_id = o.id
     LEFT JOIN delivery.delivery_attempts a ON a.delivery_id = d.id AND a.attempt = 1
     WHERE o.id LIKE $1 || '%'`,
    [prefix],
  );
  const received = receiver.firstReceipts('/hook', prefix);
  const at = Object.fromEntries(STAGE_NAMES.map((stage) => [stage, [] as number[]])) as Record<
    StageName,
    number[]
  >;
  const last = Object.fromEntries(STAGE_NAMES.map((stage) => [stage, 0])) as Record<
    StageName,
    number
  >;
  for (const row of rows) {
    const times: Record<StageName, number | undefined> = {
      relayed: Number(row.relayed),
      stored: Number(row.stored),
      sent: row.sent === null ? undefined : Number(row.sent),
      received: received.get(row.id),
    };
    for (const stage of STAGE_NAMES) {
      const time = times[stage];
      if (time === undefined) continue;
      at[stage].push(time - Number(row.created));
      last[stage] = Math.max(last[stage], time - startedAt);
    }
  }
  for (const stage of STAGE_NAMES) at[stage].sort((a, b) => a - b);
  return { name, at, last };
}

function printStages(stages: Stages[]): void {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const at = (sorted: number[], q: number) =>
    sorted.length === 0 ? 'n/a' : quantile(sorted, q).toFixed(0);
  console.log(
    '\nStages, ms after outbox created_at (cumulative): relayed = claimed by the relay, ' +
      'stored = delivery row written, sent = first attempt started, received = at the receiver; ' +
      'last = ms from the run start until the last event got there\n',
  );
  console.log(line(['run', 'stage', 'p50', 'p99', 'last']));
  console.log(line(new Array<string>(5).fill('---')));
  for (const run of stages) {
    for (const stage of STAGE_NAMES) {
      console.log(
        line([
          run.name,
          stage,
          at(run.at[stage], 0.5),
          at(run.at[stage], 0.99),
          run.last[stage].toFixed(0),
        ]),
      );
    }
  }
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function printTable(rows: Row[], states: Array<{ status: string; n: string }>): void {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(
    `\nOne endpoint subscribed to *, ${CONCURRENCY} deliveries in flight per endpoint; ` +
      `latency is outbox created_at (raw: when the body was made) → received\n`,
  );
  console.log(line(['run', 'events', 'received', 'deliveries/s', 'p50 ms', 'p99 ms', 'dupes']));
  console.log(line(new Array<string>(7).fill('---')));
  for (const row of rows) {
    console.log(
      line([
        row.name,
        String(row.events),
        String(row.delivered),
        row.perSecond.toFixed(0),
        String(row.p50),
        String(row.p99),
        String(row.duplicates),
      ]),
    );
  }
  console.log(
    `\ndelivery.deliveries by status: ${states.map((s) => `${s.status} ${s.n}`).join(', ')}`,
  );
}
