import { delay, openConnection, reconnectDelay } from '@custodian/messaging';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { ChannelModel } from 'amqplib';
import { WorkerConfig } from '../config/worker-config';

/**
 * Holds the worker's RabbitMQ connection and declares its topology: the events exchange and
 * a durable quorum queue bound to every event. Consuming and delivery arrive with issue 5;
 * until then events wait, durable, in the queue.
 */
@Injectable()
export class EventConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventConsumer');
  private connection: ChannelModel | null = null;
  private closing = false;

  constructor(@Inject(WorkerConfig) private readonly config: WorkerConfig) {}

  isConnected(): boolean {
    return this.connection !== null;
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      this.logger.warn(`RabbitMQ unavailable: ${(error as Error).message}`);
      void this.reconnect();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.connection?.close().catch(() => undefined);
    this.connection = null;
  }

  private async connect(): Promise<void> {
    const connection = await openConnection(this.config.RABBITMQ_URL, 'custodian-webhook-worker');
    const channel = await connection.createChannel();
    await channel.assertExchange(this.config.EVENTS_EXCHANGE, 'topic', { durable: true });
    await channel.assertQueue(this.config.EVENTS_QUEUE, {
      durable: true,
      arguments: { 'x-queue-type': 'quorum' },
    });
    await channel.bindQueue(this.config.EVENTS_QUEUE, this.config.EVENTS_EXCHANGE, '#');
    connection.on('error', () => undefined);
    connection.on('close', () => {
      this.connection = null;
      if (!this.closing) void this.reconnect();
    });
    this.connection = connection;
  }

  private async reconnect(): Promise<void> {
    for (let attempt = 0; !this.closing && !this.connection; attempt++) {
      await delay(reconnectDelay(attempt));
      try {
        await this.connect();
      } catch {
        // retried with backoff; /health says down meanwhile
      }
    }
  }
}
