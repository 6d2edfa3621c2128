import {
  PLAN_FACTS_ROUTING_KEY,
  PublishedEvent,
  isEventKey,
  isInternalRoutingKey,
  type WorkspacePlanFacts,
} from '@custodian/contracts';
import {
  AmqpConnection,
  QueueConsumer,
  WorkspacePlans,
  declareEventsQueue,
  readPlanFactsMessage,
  delay,
  type Delivery,
} from '@custodian/messaging';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Channel, ConsumeMessage } from 'amqplib';
import {
  eventsConsumed,
  messageContextFrom,
  runInMessageContext,
  spanAcrossHop,
  type MessageContext,
} from '@custodian/observability';
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { isDatabaseUnavailable } from '@custodian/persistence';
import { validateSync } from 'class-validator';
import { WorkerConfig } from '../config/worker-config';
import { FanOut, subscriptionKey } from '../delivery/fan-out';
import { EventFeedWriter } from '../feed/event-feed.writer';

/** A parsed event message waiting for its deliveries to be stored. */
interface Received {
  delivery: Delivery;
  event: PublishedEvent;
  /** The context of the request that wrote the event, from the message's headers. */
  context: MessageContext | undefined;
  /** Set for the gateway's plan facts (internal, no event): stored, never fanned out. */
  facts?: WorkspacePlanFacts;
}

/**
 * Consumes every event from a durable quorum queue (manual ack, bounded prefetch). Messages
 * are handled in batches: what arrived while the previous batch was being stored (up to the
 * prefetch) goes next, so under load a batch costs a few statements for up to EVENTS_PREFETCH
 * events, and an idle worker still stores a lone event at once. Each message is acked only
 * after its batch's deliveries are committed. A batch that fails for itself is taken apart by
 * workspace (settle), and a message that keeps failing is dead-lettered after
 * EVENTS_DELIVERY_LIMIT deliveries instead of looping forever.
 */
@Injectable()
export class EventConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventConsumer');
  private readonly consumer: QueueConsumer;
  /** Received, not yet taken into a batch. */
  private pending: Received[] = [];
  private flushing: Promise<void> | null = null;
  private flushScheduled = false;
  private stopping = false;

  constructor(
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
    private readonly fanOut: FanOut,
    private readonly feed: EventFeedWriter,
    private readonly plans: WorkspacePlans,
    connection: AmqpConnection,
  ) {
    this.consumer = new QueueConsumer(connection, {
      queue: config.EVENTS_QUEUE,
      // Twice the batch: the next batch arrives while one is stored, instead of after its acks.
      prefetch: 2 * config.EVENTS_PREFETCH,
      topology: (channel) => this.declare(channel),
      onMessage: (delivery) => this.receive(delivery),
      log: (message) => this.logger.warn(message),
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.consumer.start();
  }

  /**
   * Before the DataSource closes (DatabaseModule closes it in onApplicationShutdown, which Nest
   * calls after every beforeApplicationShutdown): the batch being stored must be committed.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.consumer.stop();
  }

  private declare(channel: Channel): Promise<void> {
    const c = this.config;
    return declareEventsQueue(channel, {
      exchange: c.EVENTS_EXCHANGE,
      queue: c.EVENTS_QUEUE,
      deadLetterExchange: c.EVENTS_DEAD_LETTER_EXCHANGE,
      deadLetterQueue: c.EVENTS_DEAD_LETTER_QUEUE,
      deliveryLimit: c.EVENTS_DELIVERY_LIMIT,
    });
  }

  private receive(delivery: Delivery): void {
    const routingKey = delivery.message.fields.routingKey;
    const context = messageContextFrom(delivery.message.properties.headers);
    // The queue takes every key on the exchange ('#'), the gateway's internal plan facts too.
    // They are no events, but stored here, in the queue's order, a downgrade's facts are in
    // the copy before its own plan.changed (written after them) is fanned out. The worker's
    // plan-facts queue brings the same facts (ADR 0019); the newest wins, so twice is harmless.
    if (routingKey === PLAN_FACTS_ROUTING_KEY) return this.receiveFacts(delivery, context);
    if (isInternalRoutingKey(routingKey)) {
      delivery.ack();
      return;
    }
    const event = parseEvent(delivery.message);
    if (typeof event === 'string') {
      const id = (delivery.message.properties as { messageId?: string }).messageId ?? '';
      runInMessageContext(context, () =>
        this.logger.error(`malformed event message ${id} (${event}); dead-lettered`),
      );
      delivery.reject();
      return;
    }
    this.enqueue({ delivery, event, context });
  }

  private receiveFacts(delivery: Delivery, context: MessageContext | undefined): void {
    const { envelope, facts } = readPlanFactsMessage(delivery.message.content);
    if (typeof envelope.id !== 'string' || typeof facts === 'string') {
      const id = (delivery.message.properties as { messageId?: string }).messageId ?? '';
      runInMessageContext(context, () =>
        this.logger.error(
          `malformed plan facts message ${id} (${typeof facts === 'string' ? facts : 'no id'}); dead-lettered`,
        ),
      );
      delivery.reject();
      return;
    }
    this.enqueue({ delivery, event: envelope as PublishedEvent, context, facts });
  }

  private enqueue(received: Received): void {
    this.pending.push(received);
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
      await this.settle(this.pending.splice(0, this.config.EVENTS_PREFETCH));
    }
  }

  /**
   * Stores a batch and acks its messages. Postgres unreachable: keeps them and tries again
   * with backoff rather than return them (returns count towards the delivery limit and would
   * dead-letter healthy events). Any other failure is the batch's own (its data, a statement
   * it makes too long or too big), so it is taken apart: each workspace's events are stored
   * alone, and those of a workspace that still fail one by one, so the others are acked
   * whatever one workspace sends. An event Postgres refuses for its data (SQLSTATE class 22)
   * is dead-lettered; one that fails alone for another reason goes back to the queue, whose
   * delivery limit dead-letters it if it never stores, so no event is retried forever and no
   * neighbour waits on it.
   */
  private async settle(batch: Received[], alone = false): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.process(batch);
        break;
      } catch (error) {
        if (this.stopping) {
          // Unacked: the broker redelivers them (and what is still pending) after we close.
          for (const received of [...batch, ...this.pending.splice(0)]) {
            received.delivery.abandon();
          }
          return;
        }
        if (!isUnavailable(error)) return this.isolate(batch, error, alone);
        if (attempt % 10 === 0) {
          this.logger.warn(
            `${batch.length} event(s) not stored yet (${batch[0]?.event.id}...): ${(error as Error).message}`,
          );
        }
        await delay(Math.min(200 * 2 ** Math.min(attempt, 5), 5_000));
      }
    }
    for (const { delivery, event, facts } of batch) {
      delivery.ack();
      if (!facts) eventsConsumed.inc({ event: isEventKey(event.event) ? event.event : 'unknown' });
    }
  }

  /** A batch that failed for itself: its parts are stored apart (settle). */
  private async isolate(batch: Received[], error: unknown, alone: boolean): Promise<void> {
    const [only, ...others] = batch;
    if (only && others.length === 0) {
      if (isDataError(error)) return this.deadLetter(only, error);
      if (alone) return this.returnToQueue(only, error);
    }
    const workspaces = groupBy(batch, (received) => received.event.workspace_id);
    if (workspaces.length > 1) {
      for (const part of workspaces) await this.settle(part);
      return;
    }
    for (const received of batch) await this.settle([received], true);
  }

  private returnToQueue({ delivery, event, context }: Received, error: unknown): void {
    runInMessageContext(context, () =>
      this.logger.error(
        `event ${event.id} (workspace ${event.workspace_id}) not stored ` +
          `(${(error as Error).message}); returned to the queue`,
      ),
    );
    delivery.requeue();
  }

  private deadLetter({ delivery, event, context }: Received, error: unknown): void {
    runInMessageContext(context, () =>
      this.logger.error(
        `event ${event.id} cannot be stored (${(error as Error).message}); dead-lettered`,
      ),
    );
    delivery.reject();
  }

  /**
   * Stores a batch's plan facts, then the deliveries of its events (FanOut): facts first, so an
   * event written after them is fanned out under the plan they state.
   */
  private async process(received: Received[]): Promise<void> {
    // A redelivery can bring the same event twice in one batch.
    const all = [...new Map(received.map((one) => [one.event.id, one])).values()];
    const facts = all.flatMap((one) => (one.facts ? [one.facts] : []));
    if (facts.length > 0) await this.plans.store(facts);
    const unique = all.filter((one) => !one.facts);
    if (unique.length === 0) return;
    const events = unique.map(({ event }) => event);
    // A span per event, in the trace its message carried; its deliveries keep this span's
    // context, so each attempt's span is a child of it.
    const spans: Span[] = [];
    const contexts = new Map<string, MessageContext | undefined>();
    for (const { event, context } of unique) {
      const { span, onward } = spanAcrossHop(context, `fan-out ${event.event}`, {
        kind: SpanKind.CONSUMER,
        attributes: { 'messaging.system': 'rabbitmq', 'messaging.message.id': event.id },
      });
      if (span) spans.push(span);
      contexts.set(event.id, onward);
    }
    try {
      // The feed first: an event is in the feed before any delivery of it can be sent, so a
      // receiver that reads the feed on a webhook finds that event there.
      await this.feed.append(events);
      await this.fanOutBatch(events, contexts);
    } catch (error) {
      for (const span of spans) span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      for (const span of spans) span.end();
    }
  }

  private async fanOutBatch(
    events: PublishedEvent[],
    contexts: Map<string, MessageContext | undefined>,
  ): Promise<void> {
    const subscribers = await this.fanOut.subscribersOf(events);
    if (subscribers.size === 0) return;
    const wanted = events.filter((event) =>
      subscribers.has(subscriptionKey(event.workspace_id, event.event)),
    );
    // A workspace downgraded to a plan without webhooks keeps its endpoints but gets no
    // deliveries. One the copy has no facts of yet (created a moment ago) is delivered to:
    // its endpoints were created on a plan with webhooks.
    const plans = await this.plans.many([...new Set(wanted.map((event) => event.workspace_id))]);
    await this.fanOut.storeMany(
      wanted.flatMap((event) => {
        const endpointIds = subscribers.get(subscriptionKey(event.workspace_id, event.event));
        // null, not undefined: an event without a context must not take the batch's.
        const context = contexts.get(event.id) ?? null;
        return endpointIds && plans.get(event.workspace_id)?.api_access !== false
          ? [{ event, endpointIds, context }]
          : [];
      }),
    );
  }
}

/**
 * Beyond what isDatabaseUnavailable (libs/persistence) knows: a batch is also tried again as
 * it is for a deadlock or serialization failure, too many connections, a server crash
 * shutdown, any connection exception (class 08), a name not resolving yet, and the pg pool's
 * own losses (no code, only a message).
 */
const TRANSIENT_CODES = new Set([
  '57P02',
  '53300',
  '40001',
  '40P01',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const TRANSIENT_MESSAGE =
  /connect ECONNREFUSED|Client has encountered a connection error|Cannot use a pool after calling end/;

/**
 * Postgres is unreachable, going away or asked for the statement again: no fault of the
 * batch, which is tried again as it is.
 */
export function isUnavailable(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || TRANSIENT_CODES.has(code))) {
    return true;
  }
  return typeof message === 'string' && TRANSIENT_MESSAGE.test(message);
}

/** The items in groups by key, each group in the order its items came. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item)) ?? [];
    group.push(item);
    groups.set(key(item), group);
  }
  return [...groups.values()];
}

/**
 * Postgres refused the values themselves (SQLSTATE class 22: NUL in text, bad JSON, ...):
 * trying again cannot help.
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
