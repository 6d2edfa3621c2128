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
  log?: (message: string) => void;
}

/**
 * Wakes an outbox relay the moment a row is committed, instead of at its next poll: one
 * connection of its own (outside the app's pool, where a LISTEN would tie up a pooled client
 * and be lost when it is released) LISTENs on the channel the outbox's insert trigger
 * notifies. Postgres sends a notification at commit, once per transaction, and never for a
 * rollback.
 *
 * It never throws: a listener that cannot connect says so, tries again every retryMs, and
 * the relay's poll covers the time in between.
 */
export class OutboxListener {
  private client: Client | null = null;
  private connecting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
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
    this.retry = null;
    await this.connecting;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    const { url, channel, applicationName } = this.options;
    const client = new Client({
      connectionString: url,
      application_name: applicationName,
      connectionTimeoutMillis: 5_000,
      // A connection that only listens sends nothing: keepalives find a dead peer.
      keepAlive: true,
    });
    let gone = false;
    const lost = (error?: Error) => {
      if (gone) return;
      gone = true;
      if (this.client === client) this.client = null;
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
      if (message.channel === channel) this.options.onNotify();
    });
    this.connecting = client
      .connect()
      .then(() => client.query(`LISTEN ${channel}`))
      .then(
        () => {
          if (gone) return;
          if (this.stopped) {
            gone = true;
            return client.end().catch(() => undefined);
          }
          this.client = client;
          if (this.down) this.options.log?.('outbox listener connected again');
          this.down = false;
          this.options.onListening();
        },
        (error: Error) => lost(error),
      )
      .finally(() => (this.connecting = null));
    return this.connecting;
  }
}
