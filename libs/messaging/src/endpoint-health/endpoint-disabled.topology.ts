import { ENDPOINT_DISABLED_ROUTING_KEY, endpointDisabledQueueOf } from '@custodian/contracts';
import type { Channel } from 'amqplib';

/**
 * Declares the register's queue of endpoint-disabled notices and binds it to the events
 * exchange: a durable quorum queue, declared alike by the worker's outbox relay (before it
 * publishes) and by the register's consumer, so a notice published before the register ever
 * started waits for it. Like the plan-facts queues (ADR 0019), and with the same arguments.
 */
export async function declareEndpointDisabledQueue(
  channel: Channel,
  exchange: string,
): Promise<void> {
  const queue = endpointDisabledQueueOf(exchange);
  await channel.assertExchange(exchange, 'topic', { durable: true });
  await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.bindQueue(queue, exchange, ENDPOINT_DISABLED_ROUTING_KEY);
}
