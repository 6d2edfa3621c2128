import { sleep, until } from './commands';
import {
  eventKey,
  ledgerLine,
  owedEvents,
  type AssetRow,
  type LedgerLine,
  type ReceivedFact,
  type WindowFacts,
} from './ledger';
import { type SteadyLoad, type WriteClient, type WriteRecord } from './load';
import type { WebhookReceiver } from './receiver';
import type { Harness } from './stack';

/** The worker's DELIVERY_LEASE_MS when the run does not set it (its default). */
const DEFAULT_LEASE_MS = 30_000;

export interface Timings {
  /** Writes a second of the steady load. */
  rate: number;
  /** Steady load before the fault. */
  preMs: number;
  /** Steady load after the first write acknowledged after the fault. */
  postMs: number;
  /** The longest a window waits for its events once its writes have their outcomes. */
  settleMs: number;
  /**
   * Before a worker is killed, the receiver holds its answers this long (0: not at all), so
   * that the kill finds attempts in flight that the receiver has already accepted: the
   * at-least-once duplicates the ledger must explain, sent again once the killed worker's
   * lease has run out (which the window then waits for).
   */
  holdAnswersMs: number;
}

export interface Context extends Harness {
  client: WriteClient;
  load: SteadyLoad;
  receiver: WebhookReceiver;
  timings: Timings;
}

/** One fault window: its writes' tag, when the fault struck, and what the fault adds. */
export class Window {
  faultAt = 0;
  readonly notes: string[] = [];
  readonly failures: string[] = [];

  constructor(readonly id: string) {}

  /** The moment the fault struck (the process gone, the server down): recovery counts from here. */
  mark(): void {
    this.faultAt = Date.now();
  }
}

export interface Fault {
  name: string;
  /** In the short run (needs no server restart). */
  short: boolean;
  /** The receiver refuses deliveries during the fault: deliveries given up are not missing. */
  receiverFails?: boolean;
  /**
   * Runs with the steady load going, and calls `window.mark()` once the fault has struck (the
   * process gone, the server down): recovery counts from there, not from the slow part of a
   * stop (rabbitmqctl takes a second, during which writes still succeed).
   */
  inject?(ctx: Context, window: Window): Promise<void>;
  /** Drives its own load instead of the steady one (and marks the fault itself). */
  drive?(ctx: Context, window: Window): Promise<void>;
}

/** The writes of one window. */
export function windowWrites(client: WriteClient, window: Window): WriteRecord[] {
  return client.writes.filter((write) => write.window === window.id);
}

/** Whether a write sent after the fault has been acknowledged. */
export function recovered(client: WriteClient, window: Window): boolean {
  return windowWrites(client, window).some((write) =>
    write.attempts.some(
      (attempt) =>
        attempt.startedAt >= window.faultAt &&
        attempt.status !== null &&
        attempt.status >= 200 &&
        attempt.status < 300,
    ),
  );
}

/**
 * Steady load, the fault, load until a write sent after it is acknowledged and for `postMs`
 * more (plain writes only: the last check-outs fall due meanwhile); then every write's
 * outcome, and the events settled.
 */
export async function runWindow(ctx: Context, fault: Fault, window: Window): Promise<LedgerLine> {
  const exitsBefore = ctx.stack.unexpectedExits.length;
  const handedBefore = new Map(ctx.proxy?.handed ?? []);
  if (fault.drive) {
    await fault.drive(ctx, window);
  } else {
    ctx.load.start(window.id, ctx.timings.rate);
    try {
      await sleep(ctx.timings.preMs);
      window.mark();
      await fault.inject?.(ctx, window);
      await until(() => recovered(ctx.client, window), 60_000);
      ctx.load.endCheckouts();
      await sleep(ctx.timings.postMs);
    } finally {
      await ctx.load.stop();
    }
  }
  if (ctx.proxy) window.notes.push(proxyNote(ctx.proxy, handedBefore));
  const facts = await settle(ctx, window, fault);
  return ledgerLine({ ...facts, exits: ctx.stack.unexpectedExits.slice(exitsBefore) });
}

/** Which gateways the proxy handed the window's new connections to. */
function proxyNote(proxy: NonNullable<Context['proxy']>, before: Map<string, number>): string {
  const handed = [...proxy.handed]
    .map(([label, n]) => `${label} ${n - (before.get(label) ?? 0)}`)
    .join(', ');
  return `proxy connections to ${handed}`;
}

/**
 * Waits until every event the window owes has been received (or, for a failed delivery,
 * recorded as failed) and no delivery of its events is still pending (one a killed worker
 * had in flight, received or not, stays pending until its lease runs out and it is sent
 * again: its second receipt belongs to this window's ledger), or `settleMs` passed; then one
 * second more for late duplicates.
 */
async function settle(ctx: Context, window: Window, fault: Fault): Promise<WindowFacts> {
  const loadEnded = Date.now();
  let facts = await gather(ctx, window, fault);
  const done = async (f: WindowFacts) => {
    const received = new Set(f.received.map((event) => eventKey(event.event, event.subjectId)));
    const owed = owedEvents(f);
    const owes = [...owed.write, ...owed.overdue.keys()];
    return (
      owes.every((key) => received.has(key) || f.failedDeliveries.has(key)) &&
      (await pendingDeliveries(ctx, assetIds(f))) === 0
    );
  };
  const settled = await until(
    async () => done((facts = await gather(ctx, window, fault))),
    ctx.timings.settleMs,
    250,
  );
  const settleSeconds = ((Date.now() - loadEnded) / 1000).toFixed(1);
  await sleep(1_000);
  facts = await gather(ctx, window, fault);
  facts.notes.push(
    settled
      ? `events settled ${settleSeconds} s after the last write's outcome`
      : `events not settled after ${settleSeconds} s`,
  );
  return facts;
}

/** The window's assets: stored, or acknowledged (an asset Postgres lacks is owed events too). */
function assetIds(facts: Pick<WindowFacts, 'rows' | 'writes'>): Set<string> {
  return new Set([
    ...facts.rows.map((row) => row.id),
    ...facts.writes.flatMap((write) =>
      write.outcome === 'acked' && write.assetId ? [write.assetId] : [],
    ),
  ]);
}

/** The asset an event's payload is about (`data.id`, or `data.asset.id` for assignments). */
const SUBJECT = `coalesce(p.payload -> 'data' ->> 'id', p.payload -> 'data' -> 'asset' ->> 'id')`;

/** Deliveries of events about `assets` that are neither delivered nor failed yet. */
async function pendingDeliveries(ctx: Context, assets: Set<string>): Promise<number> {
  const { rows } = await ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM delivery.deliveries d
       JOIN delivery.event_payloads p ON p.event_id = d.event_id
     WHERE d.workspace_id = $1 AND d.status = 'pending' AND ${SUBJECT} = ANY($2)`,
    [ctx.workspaceId, [...assets]],
  );
  return rows[0]?.n ?? 0;
}

async function gather(ctx: Context, window: Window, fault: Fault): Promise<WindowFacts> {
  const writes = windowWrites(ctx.client, window);
  const { rows } = await ctx.db.query<{
    key: string;
    id: string;
    created_at: number;
    checked_out: boolean;
    due_at: number | null;
  }>(
    `SELECT serial_number AS key, id, extract(epoch FROM created_at) * 1000 AS created_at,
       assigned_to_id IS NOT NULL AS checked_out,
       extract(epoch FROM custody_due_at) * 1000 AS due_at
     FROM register.assets WHERE workspace_id = $1 AND serial_number LIKE $2`,
    [ctx.workspaceId, `${ctx.run}-${window.id}-%`],
  );
  const assetRows: AssetRow[] = rows.map((row) => ({
    key: row.key,
    id: row.id,
    createdAt: Number(row.created_at),
    checkedOut: row.checked_out,
    dueAt: row.due_at === null ? null : Number(row.due_at),
  }));
  const assets = assetIds({ rows: assetRows, writes });
  const received: ReceivedFact[] = ctx.receiver.eventsAbout(assets).map((event) => ({
    eventId: event.id,
    event: event.event,
    subjectId: event.subjectId ?? '',
    dueAt: event.dueAt,
    deliveries: event.deliveries,
  }));
  const facts: WindowFacts = {
    fault: fault.name,
    faultAt: window.faultAt,
    writes,
    rows: assetRows,
    received,
    failedDeliveries: new Set(),
    receiverFailed: fault.receiverFails ?? false,
    deliveryLog: new Map(),
    workerKills: ctx.stack.workerKills(),
    leaseMs: Number(ctx.env.DELIVERY_LEASE_MS ?? DEFAULT_LEASE_MS),
    exits: [],
    notes: [...window.notes],
    failures: [...window.failures],
  };
  const receivedKeys = new Set(received.map((event) => eventKey(event.event, event.subjectId)));
  const owed = owedEvents(facts);
  const notReceived = [...owed.write, ...owed.overdue.keys()].filter(
    (key) => !receivedKeys.has(key),
  );
  if (notReceived.length > 0) {
    const { rows: failed } = await ctx.db.query<{ event: string; subject: string }>(
      `SELECT d.event, ${SUBJECT} AS subject FROM delivery.deliveries d
         JOIN delivery.event_payloads p ON p.event_id = d.event_id
       WHERE d.workspace_id = $1 AND d.status = 'failed' AND ${SUBJECT} = ANY($2)`,
      [ctx.workspaceId, [...new Set(notReceived.map((key) => key.split(' ')[1] ?? ''))]],
    );
    facts.failedDeliveries = new Set(failed.map((row) => eventKey(row.event, row.subject)));
  }
  const repeated = received.flatMap((event) =>
    [...event.deliveries].flatMap(([id, receipts]) => (receipts.length > 1 ? [id] : [])),
  );
  if (repeated.length > 0) {
    const { rows: logged } = await ctx.db.query<{
      delivery_id: string;
      started_at: number;
      duration_ms: number;
      status_code: number | null;
    }>(
      `SELECT delivery_id, extract(epoch FROM started_at) * 1000 AS started_at, duration_ms,
         status_code
       FROM delivery.delivery_attempts WHERE delivery_id = ANY($1) ORDER BY attempt`,
      [repeated],
    );
    for (const row of logged) {
      const attempts = facts.deliveryLog.get(row.delivery_id) ?? [];
      attempts.push({
        startedAt: Number(row.started_at),
        durationMs: row.duration_ms,
        statusCode: row.status_code,
      });
      facts.deliveryLog.set(row.delivery_id, attempts);
    }
  }
  return facts;
}
