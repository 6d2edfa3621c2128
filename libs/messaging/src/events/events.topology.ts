import type { Channel, Replies } from 'amqplib';

/** The webhook-worker's events queue and where it sets aside what it cannot take. */
export interface EventsQueueTopology {
  /** The topic exchange every app's outbox publishes to. */
  exchange: string;
  /** The worker's quorum queue, bound to every key of `exchange`. */
  queue: string;
  /** A fanout exchange, and the quorum queue bound to it, for messages past the limit. */
  deadLetterExchange: string;
  deadLetterQueue: string;
  /** Deliveries of one message before the broker dead-letters it (EVENTS_DELIVERY_LIMIT). */
  deliveryLimit: number;
}

/**
 * Declares the events queue, its dead-letter exchange and queue, and their bindings: what the
 * worker's EventConsumer sets up on every fresh channel before it consumes. Here, beside the
 * plan-facts topology, so that the broker users' test (broker-users.integration-spec.ts) runs
 * the worker's own declarations under the worker's user.
 */
export async function declareEventsQueue(
  channel: Channel,
  topology: EventsQueueTopology,
): Promise<void> {
  await channel.assertExchange(topology.exchange, 'topic', { durable: true });
  await channel.assertExchange(topology.deadLetterExchange, 'fanout', { durable: true });
  await declareDeadLetterQueue(channel, topology.deadLetterQueue);
  await channel.bindQueue(topology.deadLetterQueue, topology.deadLetterExchange, '');
  await channel.assertQueue(topology.queue, {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': topology.deliveryLimit,
      'x-dead-letter-exchange': topology.deadLetterExchange,
    },
  });
  await channel.bindQueue(topology.queue, topology.exchange, '#');
}

/**
 * The dead-letter queue, declared with the arguments declareEventsQueue gives it (so that
 * redeclaring it never fails on them); the reply carries its depth, which the worker's
 * dead-letter watch reads.
 */
export function declareDeadLetterQueue(
  channel: Channel,
  queue: string,
): Promise<Replies.AssertQueue> {
  return channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
}
