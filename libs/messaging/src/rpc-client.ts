import { DomainError, type ReplyOf, type RequestOf, type RpcContract } from '@custodian/contracts';
import type { ConsumeMessage } from 'amqplib';
import { ManagedConnection } from './managed-connection';
import { DIRECT_REPLY_TO, type RpcReplyMessage, type RpcRequestMessage } from './rpc-wire';

export interface RpcClientOptions {
  url: string;
  queue: string;
  /** Every request has one: the caller gets a 504 instead of a hang. */
  timeoutMs: number;
  connectionName: string;
  /** Name of the service behind the queue, for error messages. */
  serviceName: string;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Request/response over RabbitMQ with direct reply-to. A request carries a TTL equal to its
 * timeout, so a request that timed out is never executed later by a register that was slow.
 */
export class RmqRpcClient {
  private readonly connection: ManagedConnection;
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;

  constructor(private readonly options: RpcClientOptions) {
    this.connection = new ManagedConnection({
      url: options.url,
      name: options.connectionName,
      setup: async (channel) => {
        // Declared here too so requests wait for a register that is still starting.
        await channel.assertQueue(options.queue, { durable: true });
        await channel.consume(DIRECT_REPLY_TO, (message) => this.onReply(message), {
          noAck: true,
        });
      },
      onDown: () => this.failAll(this.unavailable()),
    });
  }

  /** Connects now; throws if the broker cannot be reached. */
  connect(): Promise<void> {
    return this.connection.open();
  }

  /** Connects now if the broker is up, otherwise keeps trying in the background. */
  connectOrRetry(): Promise<void> {
    return this.connection.openOrRetry();
  }

  isConnected(): boolean {
    return this.connection.channel !== null;
  }

  async close(): Promise<void> {
    this.failAll(this.unavailable());
    await this.connection.close();
  }

  /** A message of a contract: its request and reply types come from the contract. */
  send<C extends RpcContract>(
    contract: C,
    message: RequestOf<C>,
    timeoutMs = this.options.timeoutMs,
  ): Promise<ReplyOf<C>> {
    return this.request<ReplyOf<C>>(contract.pattern, message, timeoutMs);
  }

  /**
   * A message by pattern name alone, for callers that only have strings (the admin CLI, tests
   * that send what a producer might): the reply is whatever `T` the caller says it is.
   */
  request<T>(pattern: string, data: unknown, timeoutMs = this.options.timeoutMs): Promise<T> {
    const channel = this.connection.channel;
    if (!channel) return Promise.reject(this.unavailable());
    const correlationId = (++this.sequence).toString(36);
    const body: RpcRequestMessage = { pattern, data, deadline: Date.now() + timeoutMs };
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        reject(
          new DomainError(
            'timeout',
            `The ${this.options.serviceName} service did not answer in time`,
          ),
        );
      }, timeoutMs);
      this.pending.set(correlationId, { resolve: resolve as (v: unknown) => void, reject, timer });
      try {
        channel.sendToQueue(this.options.queue, Buffer.from(JSON.stringify(body)), {
          correlationId,
          replyTo: DIRECT_REPLY_TO,
          expiration: String(timeoutMs),
          contentType: 'application/json',
        });
      } catch {
        clearTimeout(timer);
        this.pending.delete(correlationId);
        reject(this.unavailable());
      }
    });
  }

  private onReply(message: ConsumeMessage | null): void {
    if (!message) return;
    const id = (message.properties as { correlationId?: string }).correlationId;
    const pending = id ? this.pending.get(id) : undefined;
    if (!id || !pending) return; // a reply that arrived after its timeout
    this.pending.delete(id);
    clearTimeout(pending.timer);
    let reply: RpcReplyMessage;
    try {
      reply = JSON.parse(message.content.toString('utf8')) as RpcReplyMessage;
    } catch {
      pending.reject(new DomainError('internal', 'malformed reply'));
      return;
    }
    if (reply.ok) pending.resolve(reply.response);
    else pending.reject(new DomainError(reply.err.code, reply.err.message));
  }

  private failAll(error: Error): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.pending.delete(id);
    }
  }

  private unavailable(): DomainError {
    return new DomainError(
      'unavailable',
      `The ${this.options.serviceName} service is unavailable; try again shortly`,
    );
  }
}
