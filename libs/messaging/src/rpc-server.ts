import { isRpcErrorPayload, type RpcErrorPayload } from '@custodian/contracts';
import { Server, RmqContext, type CustomTransportStrategy } from '@nestjs/microservices';
import type { Channel, ConsumeMessage } from 'amqplib';
import { lastValueFrom } from 'rxjs';
import { delay } from './connection';
import { ManagedConnection } from './managed-connection';
import type { RpcReplyMessage, RpcRequestMessage } from './rpc-wire';

export interface RpcServerOptions {
  url: string;
  queue: string;
  /** Messages in flight per consumer; bounds the work a replica takes on at once. */
  prefetch: number;
  connectionName: string;
}

/**
 * A thin Nest transport on amqplib for request/response. Unlike the built-in RMQ transport it
 * acks manually after the reply is sent, bounds prefetch, and turns on TCP_NODELAY.
 * Requests carry a TTL and a deadline (set by the client) so a request nobody answered in time
 * is dropped instead of being executed after the caller has given up.
 */
export class RmqRpcServer extends Server implements CustomTransportStrategy {
  private readonly connection: ManagedConnection;
  private consumerTag: string | null = null;
  private inFlight = 0;

  constructor(private readonly options: RpcServerOptions) {
    super();
    this.connection = new ManagedConnection({
      url: options.url,
      name: options.connectionName,
      setup: (channel) => this.consume(channel),
      onUp: () => {
        this.logger.log(`Reconnected to RabbitMQ, consuming ${options.queue}`);
      },
      log: (message) => {
        this.logger.warn(message);
      },
    });
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      await this.connection.open();
      callback();
    } catch (error) {
      callback(error);
    }
  }

  /**
   * Stops taking requests, lets those in flight finish and reply (a write that committed must
   * not be redelivered and run twice), then closes the connection.
   */
  async close(): Promise<void> {
    const channel = this.connection.channel;
    if (channel && this.consumerTag) {
      await channel.cancel(this.consumerTag).catch(() => undefined);
    }
    for (let waited = 0; this.inFlight > 0 && waited < 10_000; waited += 20) await delay(20);
    await this.connection.close();
  }

  on(): never {
    throw new Error('RmqRpcServer does not support event listeners');
  }

  unwrap<T>(): T {
    return this.connection as T;
  }

  /** True while consuming; the health check reads it. */
  isConnected(): boolean {
    return this.connection.channel !== null;
  }

  private async consume(channel: Channel): Promise<void> {
    await channel.assertQueue(this.options.queue, { durable: true });
    await channel.prefetch(this.options.prefetch);
    const { consumerTag } = await channel.consume(this.options.queue, (message) => {
      if (!message) return;
      this.handle(channel, message).catch((error: unknown) => {
        this.logger.error(error);
      });
    });
    this.consumerTag = consumerTag;
  }

  private async handle(channel: Channel, message: ConsumeMessage): Promise<void> {
    this.inFlight++;
    try {
      this.respond(channel, message, await this.process(channel, message));
    } finally {
      this.inFlight--;
    }
  }

  private respond(channel: Channel, message: ConsumeMessage, reply: RpcReplyMessage): void {
    const { replyTo, correlationId } = message.properties as {
      replyTo?: string;
      correlationId?: string;
    };
    try {
      if (replyTo) {
        channel.sendToQueue(replyTo, Buffer.from(JSON.stringify(reply)), {
          correlationId,
          contentType: 'application/json',
        });
      }
      channel.ack(message);
    } catch (error) {
      // The channel closed under us; the broker requeues the unacked request.
      this.logger.warn(`Could not reply on ${this.options.queue}: ${(error as Error).message}`);
    }
  }

  private async process(channel: Channel, message: ConsumeMessage): Promise<RpcReplyMessage> {
    let request: RpcRequestMessage;
    try {
      request = JSON.parse(message.content.toString('utf8')) as RpcRequestMessage;
    } catch {
      return failure({ code: 'invalid_input', message: 'request is not valid JSON' });
    }
    if (typeof request !== 'object' || request === null || typeof request.pattern !== 'string') {
      return failure({ code: 'invalid_input', message: 'request has no pattern' });
    }
    // The TTL only drops requests still in the queue; one already delivered but not yet
    // started when its caller gave up must not run either (it could commit after a 504).
    if (typeof request.deadline === 'number' && Date.now() > request.deadline) {
      return failure({ code: 'timeout', message: 'request expired before it was processed' });
    }
    // Our patterns are plain strings: look them up directly. Nest's getHandlerByPattern first
    // tries JSON.parse on every pattern, and the exception it throws cost ~5% of the CPU.
    const handler =
      this.messageHandlers.get(request.pattern) ?? this.getHandlerByPattern(request.pattern);
    if (!handler) {
      return failure({ code: 'internal', message: `no handler for ${request.pattern}` });
    }
    try {
      const context = new RmqContext([message, channel, request.pattern]);
      const result$ = this.transformToObservable<unknown>(await handler(request.data, context));
      return { ok: true, response: (await lastValueFrom(result$, { defaultValue: null })) ?? null };
    } catch (error) {
      // Copy the two fields: a DomainError (an Error) would lose its non-enumerable message
      // in JSON.stringify.
      if (isRpcErrorPayload(error)) return failure({ code: error.code, message: error.message });
      this.logger.error(error);
      return failure({ code: 'internal', message: 'internal error' });
    }
  }
}

function failure(err: RpcErrorPayload): RpcReplyMessage {
  return { ok: false, err };
}
