import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface OutboxListenerOptions {
  /** The app's database. */
  url: string;
  /** The channel the outbox's trigger notifies (outboxChannel). */
  channel: string;
  /** Shown in pg_stat_activity, so an operator can tell this connection from the pool's. */
  applicationName?: string;
  /** A transaction that wrote outbox rows has committed. */
  onNotify: () => void;
  /**
   * The listener is (again) connected: anything committed while it was not must be looked
   * for now, since those notifications are gone.
   */
  onListening: () => void;
  /** How long after a lost or refused connection the next try comes. Default 1 s. */
  retryMs?: number;
  /** How often the listener checks that it still hears its channel. Default 30 s. */
  heartbeatMs?: number;
  /** How long a connect, a query or a heartbeat may take before the connection counts as lost. Default 5 s. */
  timeoutMs?: number;
  log?: (message: string) => void;
}

/** The payload of the listener's own heartbeats; the trigger's notifications have none. */
const PING = 'ping:';

/**
 * Wakes an outbox relay the moment a row is committed, instead of at its next poll: one
 * connection of its own (outside the app's pool, where a LISTEN would tie up a pooled client
 * and be lost when it is released) LISTENs on the channel the outbox's insert trigger
 * notifies. Postgres sends a notification at commit, once per transaction, and never for a
 * rollback.
 *
 * It counts as listening only once it has heard a notification of its own on the channel, and
 * it checks so again every heartbeatMs: a connection that died without a word (a dropped NAT
 * entry, a failed-over node) or a LISTEN that a pooler in transaction mode accepted but will
 * never deliver on is found out, not trusted.
 *
 * It never throws: a listener that cannot connect says so once, tries again every retryMs,
 * and the relay's poll covers the time in between.
 */
export class OutboxListener {
  private client: Client | null = null;
  /** The client being connected, which stop() ends rather than waits for. */
  private pending: Client | null = null;
  private connecting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** Heartbeat payloads sent and not yet heard, with what to do when they are. */
  private readonly pings = new Map<string, () => void>();
  private stopped = true;
  private down = false;

  constructor(private readonly options: OutboxListenerOptions) {}

  get listening(): boolean {
    return this.client !== null;
  }

  /** Resolves once the first try has connected or failed. */
  start(): Promise<void> {
    this.stopped = false;
    return this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.retry = null;
    this.heartbeat = null;
    const clients = [this.pending, this.client];
    this.client = null;
    this.pending = null;
    for (const client of clients) if (client) await client.end().catch(() => undefined);
    await this.connecting;
  }

  private connect(): Promise<void> {
    const { url, applicationName } = this.options;
    const timeoutMs = this.options.timeoutMs ?? 5_000;
    const client = new Client({
      connectionString: url,
      application_name: applicationName,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    this.pending = client;
    let gone = false;
    const lost = (error?: Error) => {
      if (gone) return;
      gone = true;
      if (this.client === client) this.client = null;
      if (this.pending === client) this.pending = null;
      if (this.heartbeat) clearInterval(this.heartbeat);
      this.heartbeat = null;
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      if (!this.down) {
        this.down = true;
        this.options.log?.(
          `outbox listener disconnected (${error?.message ?? 'connection ended'}); polling until it is back`,
        );
      }
      this.retry = setTimeout(() => void this.connect(), this.options.retryMs ?? 1_000);
      this.retry.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel !== this.options.channel) return;
      if (message.payload?.startsWith(PING)) this.pings.get(message.payload)?.();
      else this.options.onNotify();
    });
    this.connecting = client
      .connect()
      .then(() => client.query(`LISTEN ${this.options.channel}`))
      .then(() => this.ping(client, timeoutMs))
      .then(
        () => {
          if (gone || this.stopped) return;
          this.pending = null;
          this.client = client;
          if (this.down) this.options.log?.('outbox listener connected again');
          this.down = false;
          this.heartbeat = setInterval(() => {
            this.ping(client, timeoutMs).catch(lost);
          }, this.options.heartbeatMs ?? 30_000);
          this.heartbeat.unref();
          this.options.onListening();
        },
        (error: Error) => lost(error),
      )
      .finally(() => (this.connecting = null));
    return this.connecting;
  }

  /** Notifies the channel and resolves when this connection hears it, or rejects. */
  private async ping(client: Client, timeoutMs: number): Promise<void> {
    const payload = `${PING}${randomBytes(6).toString('hex')}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve, reject) => {
      this.pings.set(payload, resolve);
      timer = setTimeout(
        () => reject(new Error(`its own notification did not come back within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    // Handled here as well: the timer may fire while the query is still awaited.
    heard.catch(() => undefined);
    try {
      await client.query('SELECT pg_notify($1, $2)', [this.options.channel, payload]);
      await heard;
    } finally {
      clearTimeout(timer);
      this.pings.delete(payload);
    }
  }
}
