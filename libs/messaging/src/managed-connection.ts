import type { Channel, ChannelModel } from 'amqplib';
import { delay, openConnection, reconnectDelay } from './connection';

export interface ManagedConnectionOptions {
  url: string;
  name: string;
  /** Declares topology and starts consumers on a fresh channel; runs on every (re)connect. */
  setup: (channel: Channel) => Promise<void>;
  /** A confirm channel (publisher confirms) instead of a plain one. */
  confirm?: boolean;
  /** Called once each time an established connection is lost. */
  onDown?: () => void;
  onUp?: () => void;
  log?: (message: string) => void;
}

/**
 * One AMQP connection and channel that come back by themselves. A connection whose setup
 * fails is closed (never leaked); a dead channel takes its connection down so both are
 * rebuilt; one reconnect loop at a time; nothing reconnects after close().
 */
export class ManagedConnection {
  private connection: ChannelModel | null = null;
  private current: Channel | null = null;
  private reconnecting: Promise<void> | null = null;
  private closing = false;

  constructor(private readonly options: ManagedConnectionOptions) {}

  get channel(): Channel | null {
    return this.current;
  }

  /** Connects now; throws if the broker cannot be reached. */
  async open(): Promise<void> {
    await this.connectOnce();
  }

  /** Connects now if the broker is up, otherwise keeps trying in the background. */
  async openOrRetry(): Promise<void> {
    try {
      await this.connectOnce();
    } catch (error) {
      this.options.log?.(`RabbitMQ unavailable, retrying: ${(error as Error).message}`);
      this.scheduleReconnect();
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const connection = this.connection;
    this.connection = null;
    this.current = null;
    await connection?.close().catch(() => undefined);
  }

  private async connectOnce(): Promise<void> {
    const connection = await openConnection(this.options.url, this.options.name);
    connection.on('error', (error: Error) => this.options.log?.(`RabbitMQ: ${error.message}`));
    try {
      const channel = this.options.confirm
        ? await connection.createConfirmChannel()
        : await connection.createChannel();
      channel.on('error', (error: Error) => this.options.log?.(`channel: ${error.message}`));
      // The broker closed the channel (e.g. a consumer timeout): rebuild everything.
      channel.on('close', () => void connection.close().catch(() => undefined));
      await this.options.setup(channel);
      if (this.closing) throw new Error('closed while connecting');
      connection.on('close', () => this.lost(connection));
      this.connection = connection;
      this.current = channel;
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  private lost(connection: ChannelModel): void {
    if (this.connection !== connection) return;
    this.connection = null;
    this.current = null;
    this.options.onDown?.();
    if (!this.closing) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.reconnecting ??= (async () => {
      for (let attempt = 0; !this.closing && !this.current; attempt++) {
        await delay(reconnectDelay(attempt));
        if (this.closing) return;
        try {
          await this.connectOnce();
          this.options.onUp?.();
        } catch (error) {
          this.options.log?.(`RabbitMQ reconnect failed: ${(error as Error).message}`);
        }
      }
    })().finally(() => {
      this.reconnecting = null;
    });
  }
}
