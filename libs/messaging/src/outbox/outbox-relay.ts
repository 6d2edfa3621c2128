import type { PublishedEvent } from '@custodian/contracts';
import { observeOutbox, observeOutboxListener, spanAcrossHop } from '@custodian/observability';
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { deleteInBatches } from '@custodian/persistence';
import type { Channel, ConfirmChannel, Message } from 'amqplib';
import type { DataSource } from 'typeorm';
import type { AmqpConnection, ChannelHandle } from '../amqp-connection';
import { OutboxListener } from './outbox-listener';
import { outboxChannel, type OutboxRow } from './outbox.table';

export interface OutboxRelayOptions {
  exchange: string;
  /** The app's schema, whose `outbox` table the relay publishes. */
  schema: string;
  /**
   * How often the table is polled for unpublished rows while there are none. With `listen`
   * this is only the safety net (the listener is reconnecting, the broker was down).
   */
  intervalMs: number;
  /**
   * How soon the next poll comes after one that published rows (more are likely on their
   * way), and the least time between two drains when notifications wake the relay: events
   * written at a steady rate go out in batches about this far apart, not one transaction each.
   * After an empty poll the relay goes back to intervalMs. Default: intervalMs / 10, between
   * 5 and 10 ms.
   */
  activeIntervalMs?: number;
  /**
   * Wake at commit: a connection of its own LISTENs on the channel the outbox's insert trigger
   * notifies (notifyOnOutboxInsert), so an event waits milliseconds, not up to intervalMs.
   */
  listen?: { url: string; applicationName?: string };
  batchSize?: number;
  /**
   * How long a published row is kept (for looking back at what was sent) before the relay
   * deletes it; unpublished rows are never deleted. Default 72 h.
   */
  retentionMs?: number;
  /** How often the relay prunes published rows older than retentionMs. Default 10 min. */
  pruneIntervalMs?: number;
  log?: (message: string) => void;
  /**
   * Queues and bindings the publisher declares besides the exchange, on each fresh channel:
   * queues whose readers may start after the first rows are published (plan facts).
   */
  topology?: (channel: Channel, exchange: string) => Promise<void>;
}

/**
 * Publishes an app's outbox rows to the events exchange: persistent, `mandatory`, on a confirm
 * channel. A row is marked published only after the broker acked it; a row the broker
 * returned as unroutable (no queue bound yet) or nacked stays and is tried again. Rows are
 * claimed with FOR UPDATE SKIP LOCKED, so replicas of an app share the work. With the broker
 * down nothing is lost: rows wait in Postgres and go out once it is back.
 *
 * With `listen`, a commit that wrote rows wakes the relay at once (no sooner than
 * activeIntervalMs after the last drain, so a busy outbox is still drained in batches); the
 * poll every intervalMs only covers what a notification cannot (a listener reconnecting, a
 * broker that was down). Without it the table is polled every activeIntervalMs while rows keep
 * coming, otherwise every intervalMs.
 */
export class OutboxRelay {
  private handle: ChannelHandle<ConfirmChannel> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private pruning: Promise<number> | null = null;
  private started = false;
  private running: Promise<number> | null = null;
  private lastWarning = 0;
  private listener: OutboxListener | null = null;
  /** A cycle (drain, then the next timer) is under way; and a wake came during it. */
  private cycling = false;
  private woken = false;
  private lastDrainEnd = 0;
  /**
   * After a drain that failed (broker refusing, Postgres away) or whose rows the broker
   * returned, wakes wait for the poll.
   */
  private pausedUntil = 0;

  constructor(
    private readonly db: DataSource,
    private readonly connection: AmqpConnection,
    private readonly options: OutboxRelayOptions,
  ) {}

  private get table(): string {
    return `${this.options.schema}.outbox`;
  }

  /** Nest lifecycle: a relay provided by an app starts and stops with it. */
  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  async start(): Promise<void> {
    this.handle = await this.connection.addChannel({
      name: 'outbox',
      confirm: true,
      setup: async (channel) => {
        await channel.assertExchange(this.options.exchange, 'topic', { durable: true });
        await this.options.topology?.(channel, this.options.exchange);
        // A channel back after the broker was away: what was committed meanwhile goes now.
        setImmediate(() => this.wake());
      },
    });
    this.started = true;
    observeOutbox(this.options.schema, () => this.backlog());
    this.schedule(this.options.intervalMs);
    if (this.options.listen) {
      this.listener = new OutboxListener({
        ...this.options.listen,
        channel: outboxChannel(this.options.schema),
        onNotify: () => this.wake(),
        onListening: () => this.wake(),
        log: this.options.log,
      });
      observeOutboxListener(this.options.schema, () => this.listener?.listening ?? false);
      await this.listener.start();
      if (!this.started) return; // stopped while the listener connected
    }
    this.pruneTimer = setInterval(() => void this.prune(), this.options.pruneIntervalMs ?? 600_000);
    this.pruneTimer.unref();
  }

  async stop(): Promise<void> {
    this.started = false;
    await this.listener?.stop();
    this.listener = null;
    if (this.timer) clearTimeout(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.timer = null;
    this.pruneTimer = null;
    await this.running?.catch(() => 0);
    await this.pruning?.catch(() => 0);
    if (this.handle) await this.connection.removeChannel(this.handle);
    this.handle = null;
  }

  /**
   * Rows waiting to be published and the age of the oldest, for the metrics (read at scrape
   * time, through the index of unpublished rows).
   */
  async backlog(): Promise<{ backlog: number; oldestAgeSeconds: number }> {
    const [row] = await this.db.query<Array<{ backlog: number; age: number | null }>>(
      `SELECT count(*)::int AS backlog,
         extract(epoch FROM now() - min(created_at))::float8 AS age
       FROM ${this.table} WHERE published_at IS NULL`,
    );
    return { backlog: row?.backlog ?? 0, oldestAgeSeconds: Math.max(0, row?.age ?? 0) };
  }

  private get activeIntervalMs(): number {
    const { intervalMs, activeIntervalMs } = this.options;
    const active = activeIntervalMs ?? Math.min(10, Math.max(5, Math.round(intervalMs / 10)));
    return Math.min(active, intervalMs);
  }

  /** The next cycle in `ms` (replacing the one planned). */
  private schedule(ms: number): void {
    if (!this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.cycle();
    }, ms);
    this.timer.unref();
  }

  /** A drain, then the next: soon after one that published rows or a wake, else idle. */
  private async cycle(): Promise<void> {
    this.cycling = true;
    this.woken = false;
    let published = 0;
    try {
      published = await this.drain();
    } finally {
      this.lastDrainEnd = performance.now();
      this.cycling = false;
      if (this.woken) this.wake();
      else this.schedule(published > 0 ? this.activeIntervalMs : this.options.intervalMs);
    }
  }

  /**
   * A commit wrote rows: drain now, or once activeIntervalMs has passed since the last drain
   * (intervalMs after one that failed or whose rows the broker returned). A wake during a
   * drain (whose SELECT may have run before the commit) makes it go again.
   */
  private wake(): void {
    if (this.cycling) {
      this.woken = true;
      return;
    }
    const at = Math.max(this.lastDrainEnd + this.activeIntervalMs, this.pausedUntil);
    const wait = at - performance.now();
    this.schedule(Math.max(0, Math.ceil(wait)));
  }

  /**
   * Publishes what is waiting, batch by batch; returns how many rows were marked published.
   * Only cycle() calls it, so a wake during a drain is never used up by a drain it joined.
   */
  private drain(): Promise<number> {
    this.running ??= this.publishAll().finally(() => (this.running = null));
    return this.running;
  }

  private async publishAll(): Promise<number> {
    let published = 0;
    try {
      for (;;) {
        const [done, claimed] = await this.publishBatch();
        published += done;
        // Rows claimed and none sent: the broker returned them (no queue bound yet). Commits
        // would otherwise send them round again up to a hundred times a second.
        if (claimed > 0 && done === 0) this.pause();
        if (claimed < (this.options.batchSize ?? 200) || done === 0) return published;
      }
    } catch (error) {
      this.warn(`outbox relay paused: ${(error as Error)?.message}`);
      // Every commit would otherwise retry at once, up to a hundred times a second.
      this.pause();
      return published;
    }
  }

  /** Until the next poll, wakes wait for it. */
  private pause(): void {
    this.pausedUntil = performance.now() + this.options.intervalMs;
  }

  private async publishBatch(): Promise<[published: number, claimed: number]> {
    const channel = this.handle?.current;
    if (!channel) return [0, 0];
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<OutboxRow[]>(
        `SELECT id, workspace_id, event, data, created_at, context FROM ${this.table}
         WHERE published_at IS NULL ORDER BY created_at, id
         LIMIT ${this.options.batchSize ?? 200} FOR UPDATE SKIP LOCKED`,
      );
      if (rows.length === 0) return [0, 0];
      const returned = new Set<string>();
      const onReturn = (message: Message) => {
        const id = (message.properties as { messageId?: string }).messageId;
        if (id) returned.add(id);
      };
      channel.on('return', onReturn);
      const spans: Span[] = [];
      try {
        for (const row of rows) {
          // A span per event, in the trace of the write that stored it: the consumer's work
          // on the event continues that trace.
          const { span, onward: headers } = spanAcrossHop(row.context, `publish ${row.event}`, {
            kind: SpanKind.PRODUCER,
            attributes: {
              'messaging.system': 'rabbitmq',
              'messaging.destination.name': this.options.exchange,
              'messaging.message.id': row.id,
            },
          });
          if (span) spans.push(span);
          // An internal row (plan facts) goes out in the same envelope; no webhook reads it.
          const event: PublishedEvent = {
            id: row.id,
            event: row.event as PublishedEvent['event'],
            created_at: row.created_at.toISOString(),
            data: row.data,
            workspace_id: row.workspace_id,
          };
          channel.publish(this.options.exchange, row.event, Buffer.from(JSON.stringify(event)), {
            persistent: true,
            mandatory: true,
            messageId: row.id,
            contentType: 'application/json',
            timestamp: Math.floor(row.created_at.getTime() / 1000),
            // The writing request's id and this span: the consumer's work names both.
            ...(headers ? { headers } : {}),
          });
        }
        // Rejects if the broker nacked any: the transaction rolls back, all rows stay.
        await channel.waitForConfirms();
      } catch (error) {
        for (const span of spans) span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        channel.off('return', onReturn);
        for (const span of spans) span.end();
      }
      const sent = rows.map((row) => row.id).filter((id) => !returned.has(id));
      if (returned.size > 0) {
        this.warn(
          `${returned.size} event(s) unroutable on ${this.options.exchange} (no queue bound); kept for retry`,
        );
      }
      if (sent.length > 0) {
        await tx.query(`UPDATE ${this.table} SET published_at = now() WHERE id = ANY($1::text[])`, [
          sent,
        ]);
      }
      return [sent.length, rows.length];
    });
  }

  /**
   * Deletes published rows older than the retention, in batches (replicas pruning at once
   * only find less to do); returns how many.
   */
  prune(): Promise<number> {
    this.pruning ??= this.pruneAll().finally(() => (this.pruning = null));
    return this.pruning;
  }

  private async pruneAll(): Promise<number> {
    try {
      return await deleteInBatches(
        this.db,
        this.table,
        `published_at IS NOT NULL AND published_at < now() - $1 * interval '1 millisecond'`,
        [this.options.retentionMs ?? 72 * 3_600_000],
      );
    } catch (error) {
      this.warn(`outbox pruning deferred: ${(error as Error).message}`);
      return 0;
    }
  }

  /** At most one line per 10 s: an outage would otherwise log every poll. */
  private warn(message: string): void {
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.options.log?.(message);
  }
}
