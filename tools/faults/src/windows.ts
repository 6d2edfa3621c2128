import { sleep, until } from './commands';
import {
  ledgerLine,
  type AssetRow,
  type LedgerLine,
  type Receipt,
  type WindowFacts,
} from './ledger';
import { type SteadyLoad, type WriteClient, type WriteRecord } from './load';
import type { WebhookReceiver } from './receiver';
import type { Harness } from './stack';

export interface Timings {
  /** Writes a second of the steady load. */
  rate: number;
  /** Steady load before the fault. */
  preMs: number;
  /** Steady load after the first write acknowledged after the fault. */
  postMs: number;
  /** The longest a window waits for its events once its writes have their outcomes. */
  settleMs: number;
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
 * more; then every write's outcome, and the events settled.
 */
export async function runWindow(ctx: Context, fault: Fault, window: Window): Promise<LedgerLine> {
  const exitsBefore = ctx.stack.unexpectedExits.length;
  if (fault.drive) {
    await fault.drive(ctx, window);
  } else {
    ctx.load.start(window.id, ctx.timings.rate);
    try {
      await sleep(ctx.timings.preMs);
      window.mark();
      await fault.inject?.(ctx, window);
      await until(() => recovered(ctx.client, window), 60_000);
      await sleep(ctx.timings.postMs);
    } finally {
      await ctx.load.stop();
    }
  }
  const facts = await settle(ctx, window, fault);
  return ledgerLine({ ...facts, exits: ctx.stack.unexpectedExits.slice(exitsBefore) });
}

/**
 * Waits until every event the window owes has been received (or, for a failed delivery,
 * recorded as failed) or `settleMs` passed, then one second more for late duplicates.
 */
async function settle(ctx: Context, window: Window, fault: Fault): Promise<WindowFacts> {
  const loadEnded = Date.now();
  let facts = await gather(ctx, window, fault);
  const done = (f: WindowFacts) =>
    [...expectedIds(f)].every((id) => f.received.has(id) || f.failedDeliveries.has(id));
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

function expectedIds(facts: WindowFacts): Set<string> {
  return new Set([
    ...facts.rows.map((row) => row.id),
    ...facts.writes.flatMap((write) =>
      write.outcome === 'acked' && write.assetId ? [write.assetId] : [],
    ),
  ]);
}

async function gather(ctx: Context, window: Window, fault: Fault): Promise<WindowFacts> {
  const writes = windowWrites(ctx.client, window);
  const { rows } = await ctx.db.query<{ key: string; id: string; created_at: number }>(
    `SELECT serial_number AS key, id, extract(epoch FROM created_at) * 1000 AS created_at
     FROM register.assets WHERE workspace_id = $1 AND serial_number LIKE $2`,
    [ctx.workspaceId, `${ctx.run}-${window.id}-%`],
  );
  const assetRows: AssetRow[] = rows.map((row) => ({
    key: row.key,
    id: row.id,
    createdAt: Number(row.created_at),
  }));
  const received = new Map<string, Receipt>();
  for (const [assetId, event] of ctx.receiver.createdBySubject()) {
    received.set(assetId, { eventId: event.id, deliveries: event.deliveries });
  }
  const facts: WindowFacts = {
    fault: fault.name,
    faultAt: window.faultAt,
    writes,
    rows: assetRows,
    received,
    failedDeliveries: new Set(),
    receiverFailed: fault.receiverFails ?? false,
    exits: [],
    notes: [...window.notes],
    failures: [...window.failures],
  };
  const notReceived = [...expectedIds(facts)].filter((id) => !received.has(id));
  if (notReceived.length > 0) {
    const { rows: failed } = await ctx.db.query<{ id: string }>(
      `SELECT p.payload -> 'data' ->> 'id' AS id FROM delivery.deliveries d
         JOIN delivery.event_payloads p ON p.event_id = d.event_id
       WHERE d.workspace_id = $1 AND d.event = 'asset.created' AND d.status = 'failed'
         AND p.payload -> 'data' ->> 'id' = ANY($2)`,
      [ctx.workspaceId, notReceived],
    );
    facts.failedDeliveries = new Set(failed.map((row) => row.id));
  }
  return facts;
}
