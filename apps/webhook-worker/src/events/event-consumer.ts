import { DomainError, PublishedEvent } from '@custodian/contracts';
import { ManagedConnection, delay } from '@custodian/messaging';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Channel, ConsumeMessage } from 'amqplib';
import { validateSync } from 'class-validator';
import { WorkerConfig } from '../config/worker-config';
import { FanOut, subscriptionKey } from '../delivery/fan-out';
import { GatewayClient } from '../gateway-client/gateway-client';

/** A parsed event message waiting for its deliveries to be stored. */
interface Received {
  channel: Channel;
  message: ConsumeMessage;
  event: PublishedEvent;
}

/**
 * Consumes every event from a durable quorum queue (manual ack, bounded prefetch). Messages
 * are handled in batches: what arrived while the previous batch was being stored (up to the
 * prefetch) goes next, so under load a batch costs two statements for up to EVENTS_PREFETCH
 * events, and an idle worker still stores a lone event at once. Each message is acked only
 * after its batch's deliveries are committed. A message that keeps failing is dead-lettered
 * after EVENTS_DELIVERY_LIMIT deliveries instead of looping forever.
 */
@Injectable()
export class EventConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventConsumer');
  private readonly connection: ManagedConnection;
  private consumerTag: string | null = null;
  /** Received, not yet taken into a batch. */
  private pending: Received[] = [];
  /** Received and not yet settled (pending or in the batch being stored). */
  private inFlight = 0;
  private flushing: Promise<void> | null = null;
  private flushScheduled = false;
  private stopping = false;

  constructor(
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
    private readonly fanOut: FanOut,
    private readonly gateway: GatewayClient,
  ) {
    this.connection = new ManagedConnection({
      url: config.RABBITMQ_URL,
      name: 'custodian-webhook-worker',
      setup: (channel) => this.setup(channel),
      log: (message) => this.logger.warn(message),
    });
  }

  isConnected(): boolean {
    return this.connection.channel !== null;
  }

  onApplicationBootstrap(): Promise<void> {
    return this.connection.openOrRetry();
  }

  /**
   * Before the DataSource closes (DatabaseModule closes it in onApplicationShutdown, which Nest
   * calls after every beforeApplicationShutdown): the batch being stored must be committed.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    const channel = this.connection.channel;
    if (channel && this.consumerTag) await channel.cancel(this.consumerTag).catch(() => undefined);
    for (let waited = 0; this.inFlight > 0 && waited < 10_000; waited += 20) await delay(20);
    await this.connection.close();
  }

  private async setup(channel: Channel): Promise<void> {
    const c = this.config;
    await channel.assertExchange(c.EVENTS_EXCHANGE, 'topic', { durable: true });
    await channel.assertExchange(c.EVENTS_DEAD_LETTER_EXCHANGE, 'fanout', { durable: true });
    await channel.assertQueue(c.EVENTS_DEAD_LETTER_QUEUE, {
      durable: true,
      arguments: { 'x-queue-type': 'quorum' },
    });
    await channel.bindQueue(c.EVENTS_DEAD_LETTER_QUEUE, c.EVENTS_DEAD_LETTER_EXCHANGE, '');
    await channel.assertQueue(c.EVENTS_QUEUE, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-delivery-limit': c.EVENTS_DELIVERY_LIMIT,
        'x-dead-letter-exchange': c.EVENTS_DEAD_LETTER_EXCHANGE,
      },
    });
    await channel.bindQueue(c.EVENTS_QUEUE, c.EVENTS_EXCHANGE, '#');
    await channel.prefetch(c.EVENTS_PREFETCH);
    const { consumerTag } = await channel.consume(c.EVENTS_QUEUE, (message) => {
      if (message) this.receive(channel, message);
    });
    this.consumerTag = consumerTag;
  }

  private receive(channel: Channel, message: ConsumeMessage): void {
    const event = parseEvent(message);
    if (typeof event === 'string') {
      this.logger.error(
        `malformed event message ${message.properties.messageId ?? ''} (${event}); dead-lettered`,
      );
      try {
        channel.nack(message, false, false);
      } catch (error) {
        this.logger.warn(`could not settle an event message: ${(error as Error).message}`);
      }
      return;
    }
    this.inFlight++;
    this.pending.push({ channel, message, event });
    if (this.flushing || this.flushScheduled) return;
    // The rest of this socket read's messages are delivered in the same turn: take them too.
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flushing ??= this.flush().finally(() => (this.flushing = null));
    });
  }

  /** Stores and acks batch after batch until nothing is waiting. */
  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.config.EVENTS_PREFETCH);
      try {
        await this.settle(batch);
      } finally {
        this.inFlight -= batch.length;
      }
    }
  }

  /**
   * Stores a batch and acks its messages. Postgres down: keeps them and tries again with
   * backoff rather than nack them (requeues count towards the delivery limit and would
   * dead-letter healthy events). A batch Postgres refuses for its data (a message it can
   * never store) is taken apart, so that message alone is dead-lettered.
   */
  private async settle(batch: Received[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.process(batch.map((received) => received.event));
        break;
      } catch (error) {
        if (isDataError(error)) {
          const [only, ...others] = batch;
          if (only && others.length === 0) return this.deadLetter(only, error);
          for (const received of batch) await this.settle([received]);
          return;
        }
        if (this.stopping) {
          // Unacked: the broker redelivers them (and what is still pending) after we close.
          this.inFlight -= this.pending.length;
          this.pending = [];
          return;
        }
        if (attempt % 10 === 0) {
          this.logger.warn(
            `${batch.length} event(s) not stored yet (${batch[0]?.event.id}...): ${(error as Error).message}`,
          );
        }
        await delay(Math.min(200 * 2 ** Math.min(attempt, 5), 5_000));
      }
    }
    for (const { channel, message } of batch) {
      try {
        channel.ack(message);
      } catch (error) {
        // The channel closed under us; the broker redelivers the unacked message.
        this.logger.warn(`could not settle an event message: ${(error as Error).message}`);
      }
    }
  }

  private deadLetter({ channel, message, event }: Received, error: unknown): void {
    this.logger.error(
      `event ${event.id} cannot be stored (${(error as Error).message}); dead-lettered`,
    );
    try {
      channel.nack(message, false, false);
    } catch (closed) {
      this.logger.warn(`could not settle an event message: ${(closed as Error).message}`);
    }
  }

  /** Stores the deliveries of a batch of events in (at most) two statements. */
  private async process(received: PublishedEvent[]): Promise<void> {
    // A redelivery can bring the same event twice in one batch.
    const events = [...new Map(received.map((event) => [event.id, event])).values()];
    const subscribers = await this.fanOut.subscribersOf(events);
    if (subscribers.size === 0) return;
    const wanted = events.filter((event) =>
      subscribers.has(subscriptionKey(event.workspace_id, event.event)),
    );
    const workspaces = [...new Set(wanted.map((event) => event.workspace_id))];
    const access = new Map(
      await Promise.all(workspaces.map(async (id) => [id, await this.apiAccess(id)] as const)),
    );
    await this.fanOut.storeMany(
      wanted.flatMap((event) => {
        const endpointIds = subscribers.get(subscriptionKey(event.workspace_id, event.event));
        return endpointIds && access.get(event.workspace_id) ? [{ event, endpointIds }] : [];
      }),
    );
  }

  /**
   * A workspace that was downgraded keeps its endpoints but gets no deliveries. If the gateway
   * cannot answer, deliver anyway: the endpoint was created on a plan with webhooks, and
   * holding events for a gateway outage would delay every workspace's deliveries.
   */
  private async apiAccess(workspaceId: string): Promise<boolean> {
    try {
      return await this.gateway.apiAccess(workspaceId);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') return false;
      this.logger.warn(`plan of ${workspaceId} unknown (${(error as Error).message}); delivering`);
      return true;
    }
  }
}

/**
 * Postgres refused the values themselves (SQLSTATE class 22: NUL in text, bad JSON, ...):
 * trying again cannot help. Anything else (connection lost, a constraint that a fresh look at
 * the endpoints resolves) is tried again.
 */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('22');
}

/**
 * The event a message carries, or what is wrong with it. Its envelope is checked against the
 * contract class (PublishedEvent: ids, key, timestamp, workspace); its `data` only for being
 * an object, since the worker passes it on as it came and checking it would cost per message.
 */
function parseEvent(message: ConsumeMessage): PublishedEvent | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.content.toString('utf8'));
  } catch {
    return 'not JSON';
  }
  if (typeof parsed !== 'object' || parsed === null) return 'not an object';
  // An instance without class-transformer's copy: `data` is kept as parsed. A `__proto__` key
  // that replaces its prototype leaves no class to check, which forbidUnknownValues refuses.
  const event: PublishedEvent = Object.assign(new PublishedEvent(), parsed);
  const [error] = validateSync(event, { forbidUnknownValues: true });
  if (!error) return event;
  return Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`;
}
