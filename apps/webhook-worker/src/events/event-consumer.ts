import { ManagedConnection } from '@custodian/messaging';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { WorkerConfig } from '../config/worker-config';

/**
 * Holds the worker's RabbitMQ connection and declares its topology: the events exchange and
 * a durable quorum queue bound to every event. Consuming and delivery arrive with issue 5;
 * until then events wait, durable, in the queue.
 */
@Injectable()
export class EventConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventConsumer');
  private readonly connection: ManagedConnection;

  constructor(@Inject(WorkerConfig) config: WorkerConfig) {
    this.connection = new ManagedConnection({
      url: config.RABBITMQ_URL,
      name: 'custodian-webhook-worker',
      setup: async (channel) => {
        await channel.assertExchange(config.EVENTS_EXCHANGE, 'topic', { durable: true });
        await channel.assertQueue(config.EVENTS_QUEUE, {
          durable: true,
          arguments: { 'x-queue-type': 'quorum' },
        });
        await channel.bindQueue(config.EVENTS_QUEUE, config.EVENTS_EXCHANGE, '#');
      },
      log: (message) => this.logger.warn(message),
    });
  }

  isConnected(): boolean {
    return this.connection.channel !== null;
  }

  onApplicationBootstrap(): Promise<void> {
    return this.connection.openOrRetry();
  }

  onApplicationShutdown(): Promise<void> {
    return this.connection.close();
  }
}
