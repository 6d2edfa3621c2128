import type { Channel, ConsumeMessage } from 'amqplib';
import type { AmqpConnection, ChannelHandle } from './amqp-connection';

/**
 * One message from a queue, to be settled once. Settling on a channel that has closed since
 * the message arrived is not an error: the broker redelivers what was not acked.
 */
export class Delivery {
  private settled = false;

  constructor(
    readonly message: ConsumeMessage,
    readonly channel: Channel,
    private readonly done: (delivery: Delivery, error?: Error) => void,
  ) {}

  ack(): void {
    this.settle(() => this.channel.ack(this.message));
  }

  /** Refused for good: dead-lettered if the queue has a dead-letter exchange, else dropped. */
  reject(): void {
    this.settle(() => this.channel.nack(this.message, false, false));
  }

  /**
   * Back to the queue now, to be delivered again; on a quorum queue each return counts towards
   * its delivery limit, past which the broker dead-letters it.
   */
  requeue(): void {
    this.settle(() => this.channel.nack(this.message, false, true));
  }

  /** Not settled here: the broker redelivers it once this channel closes (at shutdown). */
  abandon(): void {
    this.settle(() => undefined);
  }

  private settle(action: () => void): void {
    if (this.settled) return;
    this.settled = true;
    try {
      action();
      this.done(this);
    } catch (error) {
      this.done(this, error as Error);
    }
  }
}

export interface QueueConsumerOptions {
  queue: string;
  /** Messages in flight on this consumer: the work it takes on at once. */
  prefetch: number;
  /** Declares exchanges, queues and bindings on a fresh channel before consuming. */
  topology: (channel: Channel) => Promise<void>;
  /** Called once per message; the consumer's owner settles it, now or later. */
  onMessage: (delivery: Delivery) => void;
  log?: (message: string) => void;
}

/**
 * A consumer on the app's connection, with manual acks and bounded prefetch, that comes back
 * after a reconnect. stop() is the one drain of every consumer (RPC servers included): stop
 * taking messages, wait until each one taken has been settled or the time is up, then close
 * the channel so that the broker redelivers what is left.
 */
export class QueueConsumer {
  private handle: ChannelHandle | null = null;
  private consumerTag: string | null = null;
  private readonly unsettled = new Set<Delivery>();
  private drained: (() => void) | null = null;

  constructor(
    private readonly connection: AmqpConnection,
    private readonly options: QueueConsumerOptions,
  ) {}

  async start(): Promise<void> {
    this.handle = await this.connection.addChannel({
      name: this.options.queue,
      setup: (channel) => this.consume(channel),
    });
  }

  /** True while the channel is open and consuming. */
  isConsuming(): boolean {
    return this.handle?.current != null;
  }

  get inFlight(): number {
    return this.unsettled.size;
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    if (handle.current && this.consumerTag) {
      await handle.current.cancel(this.consumerTag).catch(() => undefined);
    }
    if (this.unsettled.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.drained = null;
    this.handle = null;
    await this.connection.removeChannel(handle);
  }

  private async consume(channel: Channel): Promise<void> {
    await this.options.topology(channel);
    await channel.prefetch(this.options.prefetch);
    const { consumerTag } = await channel.consume(this.options.queue, (message) => {
      if (!message) return;
      const delivery = new Delivery(message, channel, (settled, error) =>
        this.settled(settled, error),
      );
      this.unsettled.add(delivery);
      this.options.onMessage(delivery);
    });
    this.consumerTag = consumerTag;
  }

  private settled(delivery: Delivery, error?: Error): void {
    this.unsettled.delete(delivery);
    if (error) this.options.log?.(`could not settle a message: ${error.message}`);
    if (this.unsettled.size === 0) this.drained?.();
  }
}
