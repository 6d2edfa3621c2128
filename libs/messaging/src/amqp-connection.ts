import { connect, type Channel, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { hostname } from 'node:os';
import {
  PLAN_FACTS_READERS,
  endpointDisabledQueueOf,
  heavyLaneOf,
  planFactsQueueOf,
} from '@custodian/contracts';
import { observeAmqp } from '@custodian/observability';

/** What a user of the connection wants on a channel: topology, prefetch, consumers. */
export interface ChannelSpec {
  /** For log lines and the health check: `rpc register.rpc`, `events`, `outbox`. */
  name: string;
  /** A confirm channel (publisher confirms) instead of a plain one. */
  confirm?: boolean;
  /** Runs on every fresh channel: after each (re)connect, before the channel is used. */
  setup: (channel: Channel) => Promise<void>;
}

/** A channel that the connection rebuilds after every reconnect; null while it is down. */
export class ChannelHandle<C extends Channel = Channel> {
  current: C | null = null;

  constructor(readonly spec: ChannelSpec) {}
}

export interface AmqpConnectionOptions {
  url: string;
  /**
   * The app, `custodian-register`: the connection is named `custodian-register (host:pid)` in
   * the RabbitMQ management UI, so that each replica's connection can be told apart.
   */
  name: string;
  log?: (message: string) => void;
}

/**
 * An app's one AMQP connection. Servers, clients, consumers and the outbox relay each add a
 * channel; after a lost connection all of them are set up again on the new one. A channel
 * the broker closes (a consumer timeout, a refused declaration) takes the connection down, so
 * everything is rebuilt the same way; a connection whose setup fails is closed, never leaked;
 * one reconnect loop at a time (100 ms doubling to 5 s); nothing reconnects after close().
 * Nagle is off: amqplib leaves it on, which stalls small request/response messages ~40 ms.
 */
export class AmqpConnection {
  private model: ChannelModel | null = null;
  private readonly handles: ChannelHandle<Channel>[] = [];
  private reconnecting: Promise<void> | null = null;
  private closing = false;
  private readonly downListeners: Array<() => void> = [];
  /** Forgets this connection in the `custodian_amqp_connected` gauge. */
  private unobserve: (() => void) | null = null;

  constructor(private readonly options: AmqpConnectionOptions) {}

  isConnected(): boolean {
    return this.model !== null;
  }

  /** Every channel up, or the first that is not: what the health check reports. */
  status(): { up: true } | { up: false; message: string } {
    if (!this.model) return { up: false, message: 'not connected' };
    const down = this.handles.find((handle) => !handle.current);
    return down ? { up: false, message: `channel ${down.spec.name} is closed` } : { up: true };
  }

  /** Called each time an established connection is lost (not on close()). */
  onDown(listener: () => void): void {
    this.downListeners.push(listener);
  }

  /**
   * Adds a channel, opened now if the connection is up and after every reconnect. A setup
   * that fails on a live connection takes it down and is retried with it.
   */
  async addChannel(spec: ChannelSpec & { confirm: true }): Promise<ChannelHandle<ConfirmChannel>>;
  async addChannel(spec: ChannelSpec): Promise<ChannelHandle>;
  async addChannel(spec: ChannelSpec): Promise<ChannelHandle> {
    const handle = new ChannelHandle(spec);
    this.handles.push(handle);
    const model = this.model;
    if (model) {
      try {
        await this.openChannel(model, handle);
      } catch (error) {
        this.options.log?.(`RabbitMQ channel ${spec.name}: ${(error as Error).message}`);
        await model.close().catch(() => undefined);
      }
    }
    return handle;
  }

  /** Closes one channel and forgets it: it is not rebuilt on reconnect. */
  async removeChannel(handle: ChannelHandle<Channel>): Promise<void> {
    const index = this.handles.indexOf(handle);
    if (index >= 0) this.handles.splice(index, 1);
    const channel = handle.current;
    handle.current = null;
    await channel?.close().catch(() => undefined);
  }

  /** Connects now; throws if the broker cannot be reached (tools, the admin CLI). */
  async open(): Promise<void> {
    this.closing = false;
    this.unobserve ??= observeAmqp(() => this.status().up);
    await this.connectOnce();
  }

  /**
   * An app's start: connects if the broker can be reached, else keeps trying in the background
   * with the reconnect loop's backoff, exactly as after a connection lost later, and resolves
   * either way. The app starts meanwhile, not ready (status() is down, so /health says so):
   * channels added now are opened when the connection comes. Before, a broker down (or killed)
   * while an app started made it exit, and nothing started it again.
   */
  async openWhenReachable(): Promise<void> {
    try {
      await this.open();
    } catch (error) {
      if (this.closing) return;
      this.options.log?.(
        `RabbitMQ not reachable at start (${(error as Error).message}); trying again in the background`,
      );
      this.scheduleReconnect();
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.unobserve?.();
    this.unobserve = null;
    const model = this.model;
    this.model = null;
    for (const handle of this.handles) handle.current = null;
    await model?.close().catch(() => undefined);
  }

  private async connectOnce(): Promise<void> {
    const model = await openConnection(
      this.options.url,
      `${this.options.name} (${hostname()}:${process.pid})`,
    );
    model.on('error', (error: Error) => this.options.log?.(`RabbitMQ: ${error.message}`));
    try {
      // A channel added while this loop runs is appended and still reached by it.
      for (const handle of this.handles) await this.openChannel(model, handle);
      if (this.closing) throw new Error('closed while connecting');
      model.on('close', () => this.lost(model));
      this.model = model;
    } catch (error) {
      for (const handle of this.handles) handle.current = null;
      await model.close().catch(() => undefined);
      throw error;
    }
  }

  private async openChannel(model: ChannelModel, handle: ChannelHandle<Channel>): Promise<void> {
    const channel = handle.spec.confirm
      ? await model.createConfirmChannel()
      : await model.createChannel();
    channel.on('error', (error: Error) =>
      this.options.log?.(`RabbitMQ channel ${handle.spec.name}: ${error.message}`),
    );
    channel.on('close', () => {
      if (handle.current !== channel) return;
      handle.current = null;
      // Closed by the broker, not by removeChannel(): rebuild everything.
      if (this.handles.includes(handle)) void model.close().catch(() => undefined);
    });
    await handle.spec.setup(channel);
    handle.current = channel;
  }

  private lost(model: ChannelModel): void {
    if (this.model !== model) return;
    this.model = null;
    for (const handle of this.handles) handle.current = null;
    for (const listener of this.downListeners) listener();
    if (!this.closing) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.reconnecting ??= (async () => {
      for (let attempt = 0; !this.closing && !this.model; attempt++) {
        await delay(reconnectDelay(attempt));
        if (this.closing) return;
        try {
          await this.connectOnce();
          this.options.log?.(`RabbitMQ reconnected (${this.options.name})`);
        } catch (error) {
          this.options.log?.(`RabbitMQ reconnect failed: ${(error as Error).message}`);
        }
      }
    })().finally(() => {
      this.reconnecting = null;
    });
  }
}

/** A bare connection with Nagle off, for tools and tests that declare or purge queues. */
export function openConnection(url: string, name: string): Promise<ChannelModel> {
  return connect(url, { noDelay: true, clientProperties: { connection_name: name } });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** 100 ms, 200 ms, 400 ms ... capped at 5 s: how long to wait before reconnect attempt n. */
export function reconnectDelay(attempt: number): number {
  return Math.min(5_000, 100 * 2 ** Math.min(attempt, 6));
}

/**
 * Deletes queues and exchanges (the empty names skipped), on a connection of its own: the
 * cleanup of tools and tests that declared a run's own topology.
 */
export async function deleteTopology(
  url: string,
  name: string,
  topology: { queues: Array<string | undefined>; exchanges: Array<string | undefined> },
): Promise<void> {
  const connection = await openConnection(url, name);
  try {
    const channel = await connection.createChannel();
    for (const queue of topology.queues) if (queue) await channel.deleteQueue(queue);
    for (const exchange of topology.exchanges) if (exchange) await channel.deleteExchange(exchange);
  } finally {
    await connection.close();
  }
}

/**
 * Deletes every queue and exchange the three apps declare under the names `env` gives them (the
 * variables each app's config reads; unset ones skipped): the cleanup of a test, bench or
 * fault run that started a whole stack under names of its own.
 */
export async function deleteStackTopology(
  url: string,
  name: string,
  env: Partial<Record<string, string>>,
): Promise<void> {
  await deleteTopology(url, name, {
    queues: [
      env.REGISTER_QUEUE,
      env.REGISTER_QUEUE && heavyLaneOf(env.REGISTER_QUEUE),
      env.REGISTER_ADMIN_QUEUE,
      env.REGISTER_ADMIN_QUEUE && heavyLaneOf(env.REGISTER_ADMIN_QUEUE),
      env.ADMIN_QUEUE,
      env.EVENTS_QUEUE,
      env.WORKER_ADMIN_QUEUE,
      env.EVENTS_DEAD_LETTER_QUEUE,
      ...PLAN_FACTS_READERS.map(
        (reader) => env.EVENTS_EXCHANGE && planFactsQueueOf(env.EVENTS_EXCHANGE, reader),
      ),
      env.EVENTS_EXCHANGE && endpointDisabledQueueOf(env.EVENTS_EXCHANGE),
    ],
    exchanges: [env.EVENTS_EXCHANGE, env.EVENTS_DEAD_LETTER_EXCHANGE],
  });
}
