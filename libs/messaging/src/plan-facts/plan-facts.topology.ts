import {
  PLAN_FACTS_READERS,
  PLAN_FACTS_ROUTING_KEY,
  planFactsQueueOf,
  type PlanFactsReader,
} from '@custodian/contracts';
import type { Channel } from 'amqplib';

/**
 * Declares one reader's plan-facts queue and binds it to the events exchange. Durable quorum
 * queues, declared alike by the gateway (for every reader, before it publishes) and by each
 * reader, so facts stated before a reader ever started wait in its queue.
 */
export async function declarePlanFactsQueue(
  channel: Channel,
  exchange: string,
  reader: PlanFactsReader,
): Promise<string> {
  const queue = planFactsQueueOf(exchange, reader);
  await channel.assertExchange(exchange, 'topic', { durable: true });
  await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.bindQueue(queue, exchange, PLAN_FACTS_ROUTING_KEY);
  return queue;
}

/** Every reader's queue: the gateway's side of declarePlanFactsQueue. */
export async function declareAllPlanFactsQueues(channel: Channel, exchange: string): Promise<void> {
  for (const reader of PLAN_FACTS_READERS) await declarePlanFactsQueue(channel, exchange, reader);
}
