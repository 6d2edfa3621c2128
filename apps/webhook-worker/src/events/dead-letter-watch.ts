import { deadLetterMessages } from '@custodian/observability';
import { AmqpConnection, declareDeadLetterQueue, type ChannelHandle } from '@custodian/messaging';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { WorkerConfig } from '../config/worker-config';

const EVERY_MS = 30_000;

/**
 * Watches the events dead-letter queue (events that could not be stored: malformed, refused by
 * Postgres for their data, or past the delivery limit). Every 30 s it reads the queue's depth,
 * logs a warning when it has grown, and keeps the figure for `/health`. Nothing there is
 * retried by itself: a person looks at it.
 */
@Injectable()
export class DeadLetterWatch implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeadLetterWatch');
  private handle: ChannelHandle | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Messages in the dead-letter queue at the last check; null before the first. */
  count: number | null = null;

  constructor(
    private readonly connection: AmqpConnection,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.connection.addChannel({
      name: 'dead letters',
      setup: () => Promise.resolve(),
    });
    await this.check();
    this.timer = setInterval(() => void this.check(), EVERY_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.handle) await this.connection.removeChannel(this.handle);
    this.handle = null;
  }

  /** Reads the depth now; a broker that is down leaves the last figure. */
  async check(): Promise<number | null> {
    const channel = this.handle?.current;
    if (!channel) return this.count;
    try {
      // Declared as the events consumer declares it, so that this never fails on arguments.
      const { messageCount } = await declareDeadLetterQueue(
        channel,
        this.config.EVENTS_DEAD_LETTER_QUEUE,
      );
      if (this.count !== null && messageCount > this.count) {
        this.logger.warn(
          `dead-letter queue ${this.config.EVENTS_DEAD_LETTER_QUEUE} holds ${messageCount} ` +
            `event(s) (+${messageCount - this.count}); they are not retried by themselves`,
        );
      }
      this.count = messageCount;
      deadLetterMessages.set(messageCount);
    } catch (error) {
      this.logger.warn(`dead-letter queue not read: ${(error as Error).message}`);
    }
    return this.count;
  }
}
