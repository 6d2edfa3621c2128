import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Every metric of the three apps, in one registry per process, served as Prometheus text on
 * each app's health port (never its public one). Labels stay low-cardinality on purpose: no
 * workspace, endpoint, key or asset ids; routes are templates, statuses codes or classes.
 * docs/operations.md says what each means and which alerts to set.
 */
export const metricsRegistry = new Registry();

/** Seconds; request and RPC latencies live between a millisecond and the 10 s deadline. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequestDuration = new Histogram({
  name: 'custodian_http_request_duration_seconds',
  help: 'HTTP requests served, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const rpcClientDuration = new Histogram({
  name: 'custodian_rpc_client_duration_seconds',
  help: 'RPC requests this app sent, by target service, pattern and outcome (ok, error, timeout, unavailable).',
  labelNames: ['target', 'pattern', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const rpcServerDuration = new Histogram({
  name: 'custodian_rpc_server_duration_seconds',
  help: 'RPC requests this app served, by queue, pattern and outcome (ok, or the error code).',
  labelNames: ['queue', 'pattern', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const limitRefusals = new Counter({
  name: 'custodian_limit_refusals_total',
  help: "Requests refused by a workspace's limits, by plan and reason (rate_limit, quota, plan).",
  labelNames: ['plan', 'reason'] as const,
  registers: [metricsRegistry],
});

export const eventsConsumed = new Counter({
  name: 'custodian_events_consumed_total',
  help: 'Event messages the webhook worker stored deliveries for (acked), by event kind.',
  labelNames: ['event'] as const,
  registers: [metricsRegistry],
});

export const deliveriesTotal = new Counter({
  name: 'custodian_deliveries_total',
  help: 'Webhook attempts by what they led to (delivered, retry, failed) and HTTP status class (2xx..5xx, none when no answer).',
  labelNames: ['outcome', 'status_class'] as const,
  registers: [metricsRegistry],
});

export const deliveryAttemptDuration = new Histogram({
  name: 'custodian_delivery_attempt_duration_seconds',
  help: 'Duration of each webhook attempt, by outcome.',
  labelNames: ['outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const deliveryEndToEnd = new Histogram({
  name: 'custodian_delivery_end_to_end_seconds',
  help: 'From the write that caused an event to its delivery being answered 2xx.',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
  registers: [metricsRegistry],
});

let leasesProbe: (() => number) | null = null;

export const deliveryLeasesHeld = new Gauge({
  name: 'custodian_delivery_leases_held',
  help: 'Deliveries this worker holds a lease on (in flight or waiting for a slot).',
  registers: [metricsRegistry],
  collect() {
    if (leasesProbe) this.set(leasesProbe());
  },
});

/** The worker's scheduler tells the gauge how many leases it holds. */
export function observeLeases(probe: () => number): void {
  leasesProbe = probe;
}

/** What the `observe*` functions read at scrape time. */
type Probe<T> = () => T | Promise<T>;

/**
 * `read` as a collect function that two gauges fed by one query share: whichever is collected
 * first in a scrape runs it, the other waits for the same run.
 */
function sharedRead(read: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => (running ??= read().finally(() => (running = null)));
}

let dueProbe: Probe<{ due: number; oldestAgeSeconds: number }> | null = null;

export const deliveriesDue = new Gauge({
  name: 'custodian_deliveries_due',
  help: 'Deliveries due now that no worker holds a lease on (all workers: each reports the same).',
  registers: [metricsRegistry],
  async collect() {
    await collectDue();
  },
});

export const deliveryOldestDueAge = new Gauge({
  name: 'custodian_delivery_oldest_due_age_seconds',
  help: 'How long the oldest delivery due now and not leased has been due (0 when none).',
  registers: [metricsRegistry],
});

const collectDue = sharedRead(async () => {
  if (!dueProbe) return;
  try {
    const { due, oldestAgeSeconds } = await dueProbe();
    deliveriesDue.set(due);
    deliveryOldestDueAge.set(oldestAgeSeconds);
  } catch {
    // Postgres down: NaN (unknown), not a stale figure nor a reassuring 0; /health says why.
    deliveriesDue.set(Number.NaN);
    deliveryOldestDueAge.set(Number.NaN);
  }
});

/** The worker tells the gauges how to read what is due and not leased. */
export function observeDueDeliveries(
  probe: Probe<{ due: number; oldestAgeSeconds: number }>,
): void {
  dueProbe = probe;
}

export const deadLetterMessages = new Gauge({
  name: 'custodian_dead_letter_messages',
  help: 'Event messages in the dead-letter queue, as last read by the worker.',
  registers: [metricsRegistry],
});

const amqpProbes = new Set<() => boolean>();

export const amqpConnected = new Gauge({
  name: 'custodian_amqp_connected',
  help: '1 while every RabbitMQ connection of the app is up with all its channels, else 0.',
  registers: [metricsRegistry],
  collect() {
    this.set([...amqpProbes].every((up) => up()) ? 1 : 0);
  },
});

/** A RabbitMQ connection, read at scrape time while it is open; the returned function forgets it. */
export function observeAmqp(up: () => boolean): () => void {
  amqpProbes.add(up);
  return () => amqpProbes.delete(up);
}

const outboxProbes = new Map<string, Probe<{ backlog: number; oldestAgeSeconds: number }>>();

export const outboxBacklog = new Gauge({
  name: 'custodian_outbox_backlog',
  help: 'Outbox rows not yet published (confirmed by the broker), by schema.',
  labelNames: ['schema'] as const,
  registers: [metricsRegistry],
  async collect() {
    await collectOutbox();
  },
});

export const outboxOldestAge = new Gauge({
  name: 'custodian_outbox_oldest_age_seconds',
  help: 'Age of the oldest unpublished outbox row (0 when none), by schema.',
  labelNames: ['schema'] as const,
  registers: [metricsRegistry],
});

/** Both outbox gauges, one read per schema. */
const collectOutbox = sharedRead(async () => {
  for (const [schema, probe] of outboxProbes) {
    try {
      const { backlog, oldestAgeSeconds } = await probe();
      outboxBacklog.set({ schema }, backlog);
      outboxOldestAge.set({ schema }, oldestAgeSeconds);
    } catch {
      // Postgres down: no value rather than a stale one; the health check says why.
      outboxBacklog.remove({ schema });
      outboxOldestAge.remove({ schema });
    }
  }
});

/** The relay of `schema` tells the gauges how to read its backlog. */
export function observeOutbox(
  schema: string,
  probe: Probe<{ backlog: number; oldestAgeSeconds: number }>,
): void {
  outboxProbes.set(schema, probe);
}

const outboxListeners = new Map<string, () => boolean>();

export const outboxListening = new Gauge({
  name: 'custodian_outbox_listening',
  help: "1 while the outbox relay's LISTEN connection is up (a commit wakes it), 0 while it relies on its poll, by schema.",
  labelNames: ['schema'] as const,
  registers: [metricsRegistry],
  collect() {
    for (const [schema, listening] of outboxListeners) this.set({ schema }, listening() ? 1 : 0);
  },
});

/** The relay of `schema` listens for commits (OUTBOX_LISTEN on); absent from the metrics when not. */
export function observeOutboxListener(schema: string, listening: () => boolean): void {
  outboxListeners.set(schema, listening);
}

interface PoolState {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

let poolProbe: Probe<PoolState | undefined> | null = null;

export const dbPoolConnections = new Gauge({
  name: 'custodian_db_pool_connections',
  help: "The app's Postgres pool: connections open (total), idle, and requests waiting for one.",
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  async collect() {
    const state = await poolProbe?.();
    if (!state) return;
    this.set({ state: 'total' }, state.totalCount);
    this.set({ state: 'idle' }, state.idleCount);
    this.set({ state: 'waiting' }, state.waitingCount);
  },
});

/** The app's Postgres pool (pg's Pool), read at scrape time. */
export function observePool(probe: Probe<PoolState | undefined>): void {
  poolProbe = probe;
}

let started = false;

/**
 * How often the event-loop lag is sampled. prom-client's default, 10 ms, wakes an idle process
 * a hundred times a second: about 8 ms of CPU a second per process on the development VM,
 * against under 1 ms at 100 ms (a bare Node process with only the default metrics, 20 s each,
 * twice). At ten samples a second a scrape every 15 s still sees 150 of them, and each
 * measures the lag to the millisecond.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * Names the app on every series and adds Node's own metrics (CPU, memory, event-loop lag, GC)
 * once per process.
 */
export function startMetrics(app: string): void {
  if (started) return;
  started = true;
  metricsRegistry.setDefaultLabels({ app });
  collectDefaultMetrics({
    register: metricsRegistry,
    eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
  });
}

/** The Prometheus text exposition of every metric, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** `2xx`..`5xx` for an HTTP status; `none` when there was no answer. */
export function statusClass(status: number | null): string {
  return status === null ? 'none' : `${Math.floor(status / 100)}xx`;
}
