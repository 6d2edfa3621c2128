import { endpointDisabledQueueOf, parseEndpointDisabledNotice } from '@custodian/contracts';
import {
  AmqpConnection,
  QueueConsumer,
  declareEndpointDisabledQueue,
  delay,
  type Delivery,
} from '@custodian/messaging';
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { RegisterConfig } from '../config/register-config';
import { EndpointDisabledNotices } from './endpoint-disabled-notices';

/**
 * Reads the worker's notices of endpoints it disabled from the register's own durable quorum
 * queue (manual ack after the commit), one at a time: they are rare. A message that is not a
 * notice is rejected (dropped) with an error in the log; with Postgres down a message waits
 * and is tried again, never lost, as the plan-facts consumer does.
 */
@Injectable()
export class EndpointDisabledConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EndpointDisabledConsumer');
  private readonly consumer: QueueConsumer;
  private chain: Promise<void> = Promise.resolve();
  private stopping = false;

  constructor(
    connection: AmqpConnection,
    config: RegisterConfig,
    private readonly notices: EndpointDisabledNotices,
  ) {
    this.consumer = new QueueConsumer(connection, {
      queue: endpointDisabledQueueOf(config.EVENTS_EXCHANGE),
      prefetch: 10,
      topology: async (channel) => {
        await declareEndpointDisabledQueue(channel, config.EVENTS_EXCHANGE);
      },
      onMessage: (delivery) => {
        this.chain = this.chain.then(() => this.handle(delivery));
      },
      log: (message) => this.logger.warn(message),
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.consumer.stop();
  }

  private async handle(delivery: Delivery): Promise<void> {
    const { messageId, notice } = readMessage(delivery.message.content);
    const id = messageId ?? (delivery.message.properties as { messageId?: string }).messageId;
    if (typeof notice === 'string' || !id) {
      const why = typeof notice === 'string' ? notice : 'no message id';
      this.logger.error(`endpoint-disabled message ${id ?? '?'} refused (${why}); dropped`);
      delivery.reject();
      return;
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await this.notices.receive(id, notice);
        delivery.ack();
        return;
      } catch (error) {
        // Unacked at shutdown: the broker hands it to the next start.
        if (this.stopping) return delivery.abandon();
        if (attempt % 10 === 0) {
          this.logger.warn(
            `endpoint-disabled notice ${id} not handled yet: ${(error as Error).message}`,
          );
        }
        await delay(Math.min(200 * 2 ** Math.min(attempt, 5), 5_000));
      }
    }
  }
}

/** The envelope's id (the worker's outbox row id) and its checked data. */
function readMessage(content: Buffer): {
  messageId: string | undefined;
  notice: ReturnType<typeof parseEndpointDisabledNotice>;
} {
  try {
    const envelope = JSON.parse(content.toString('utf8')) as { id?: unknown; data?: unknown };
    return {
      messageId: typeof envelope.id === 'string' ? envelope.id : undefined,
      notice: parseEndpointDisabledNotice(envelope.data),
    };
  } catch {
    return { messageId: undefined, notice: 'not JSON' };
  }
}
