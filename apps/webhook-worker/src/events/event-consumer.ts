import { DomainError, type PublishedEvent } from '@custodian/contracts';
import { ManagedConnection, delay } from '@custodian/messaging';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Channel, ConsumeMessage } from 'amqplib';
import { WorkerConfig } from '../config/worker-config';
import { FanOut } from '../delivery/fan-out';
import { GatewayClient } from '../gateway-client/gateway-client';

/**
 * Consumes every event from a durable quorum queue (manual ack, bounded prefetch). For each
 * event it stores the deliveries in one statement, then acks. A message that keeps failing
 * is dead-lettered after EVENTS_DELIVERY_LIMIT deliveries instead of looping forever.
 */
@Injectable()
export class EventConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventConsumer');
  private readonly connection: ManagedConnection;
  private consumerTag: string | null = null;
  private inFlight = 0;
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

  async onApplicationShutdown(): Promise<void> {
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
      if (message) void this.handle(channel, message);
    });
    this.consumerTag = consumerTag;
  }

  private async handle(channel: Channel, message: ConsumeMessage): Promise<void> {
    this.inFlight++;
    try {
      const event = parseEvent(message);
      if (!event) {
        this.logger.error(
          `malformed event message ${message.properties.messageId ?? ''}; dead-lettered`,
        );
        channel.nack(message, false, false);
        return;
      }
      // Postgres down: keep the message and try again with backoff rather than nack it
      // (requeues count towards the delivery limit and would dead-letter healthy events).
      for (let attempt = 0; ; attempt++) {
        try {
          await this.process(event);
          break;
        } catch (error) {
          if (this.stopping) return; // unacked: the broker redelivers it after we close
          if (attempt % 10 === 0) {
            this.logger.warn(`event ${event.id} not stored yet: ${(error as Error).message}`);
          }
          await delay(Math.min(200 * 2 ** attempt, 5_000));
        }
      }
      channel.ack(message);
    } catch (error) {
      // The channel closed under us; the broker redelivers the unacked message.
      this.logger.warn(`could not settle an event message: ${(error as Error).message}`);
    } finally {
      this.inFlight--;
    }
  }

  private async process(event: PublishedEvent): Promise<void> {
    const endpoints = await this.fanOut.subscribers(event.workspace_id, event.event);
    if (endpoints.length === 0) return;
    if (!(await this.apiAccess(event.workspace_id))) return;
    await this.fanOut.store(event, endpoints);
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

function parseEvent(message: ConsumeMessage): PublishedEvent | null {
  try {
    const event = JSON.parse(message.content.toString('utf8')) as PublishedEvent;
    const ok =
      typeof event === 'object' &&
      event !== null &&
      typeof event.id === 'string' &&
      typeof event.event === 'string' &&
      typeof event.workspace_id === 'string' &&
      typeof event.created_at === 'string' &&
      typeof event.data === 'object';
    return ok ? event : null;
  } catch {
    return null;
  }
}
