import {
  DomainError,
  RawJson,
  type ReplyOf,
  type RequestOf,
  type RpcContract,
} from '@custodian/contracts';
import type { Channel, ConsumeMessage } from 'amqplib';
import {
  currentMessageContext,
  messageContextUnder,
  rpcClientDuration,
  tracer,
  spansHere,
  type MessageContext,
} from '@custodian/observability';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { randomUUID } from 'node:crypto';
import { AmqpConnection, type ChannelHandle } from './amqp-connection';
import {
  DIRECT_REPLY_TO,
  RAW_REPLY_HEADER,
  RAW_REPLY_TAG,
  RAW_REPLY_JSON,
  type RpcReplyMessage,
  type RpcRequestMessage,
} from './rpc-wire';

/** Another app's RPC queue, as one app calls it. */
export interface RpcTarget {
  queue: string;
  /** Every request has one: the caller gets a 504 instead of a hang. */
  timeoutMs: number;
  /** Name of the service behind the queue, for error messages. */
  serviceName: string;
  /**
   * Whether a request pending when the connection drops is sent again (same id) once it is
   * back, within its timeout, instead of failing with 503. Only for a server that applies a
   * request once however often it comes (the register's API queue: its writes store their
   * request id): the first copy may have been applied and its reply lost with the connection.
   */
  resendAfterReconnect?: boolean;
}

/** What identifies a request beyond its message (rpc-wire.ts). */
export interface RequestIdentity {
  /** Defaults to a new UUID: redeliveries of this one message are still recognised. */
  id?: string;
  fingerprint?: string;
  /** The id the version before derived from the same Idempotency-Key (RpcRequestContext). */
  formerId?: string;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  target: RpcTarget;
  /** The request as sent, for a resend after a reconnect. */
  body: Buffer;
  /** Its headers: the caller's request context (request-context.ts in observability). */
  headers: MessageContext | undefined;
  /** When its caller stops waiting (Date.now()). */
  deadline: number;
}

/**
 * Request/response over RabbitMQ with direct reply-to, one per app connection and shared by
 * every queue the app calls. A request carries a TTL equal to its timeout, so a request that
 * timed out is never executed later by a server that was slow. While the connection is down
 * requests fail at once with `unavailable` (503); those pending when it drops fail too, unless
 * their target applies each request once (`resendAfterReconnect`): they are sent again, same id,
 * when the connection is back, and time out (504) if it is not back in time.
 */
export class RpcClient {
  private handle: ChannelHandle | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly queues = new Set<string>();
  private sequence = 0;

  constructor(private readonly connection: AmqpConnection) {
    connection.onDown(() => this.failAll((pending) => !pending.target.resendAfterReconnect));
  }

  /** Adds the reply channel to the connection (before or after it opens). */
  async start(): Promise<void> {
    this.handle ??= await this.connection.addChannel({
      name: 'rpc replies',
      setup: async (channel) => {
        // Declared here too, so that requests wait in the queue for a server still starting
        // instead of being dropped by the default exchange.
        for (const queue of this.queues) await channel.assertQueue(queue, { durable: true });
        await channel.consume(DIRECT_REPLY_TO, (message) => this.onReply(message), {
          noAck: true,
        });
        // Requests kept across the drop go out again on the new channel (replies come here).
        for (const [correlationId, pending] of this.pending) {
          const left = pending.deadline - Date.now();
          if (left > 0) this.publish(channel, pending.target, correlationId, pending, left);
        }
      },
    });
  }

  /** A queue this app sends to: declared on every (re)connect. */
  addTarget(queue: string): void {
    if (this.queues.has(queue)) return;
    this.queues.add(queue);
    void this.handle?.current?.assertQueue(queue, { durable: true }).catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.failAll(() => true);
    if (this.handle) await this.connection.removeChannel(this.handle);
    this.handle = null;
  }

  isConnected(): boolean {
    return this.handle?.current != null;
  }

  request<T>(
    target: RpcTarget,
    pattern: string,
    data: unknown,
    timeoutMs: number,
    identity: RequestIdentity = {},
  ): Promise<T> {
    const channel = this.handle?.current;
    if (!channel) return Promise.reject(unavailable(target));
    const correlationId = (++this.sequence).toString(36);
    const message: RpcRequestMessage = {
      id: identity.id ?? randomUUID(),
      ...(identity.fingerprint === undefined ? {} : { fingerprint: identity.fingerprint }),
      ...(identity.formerId === undefined ? {} : { formerId: identity.formerId }),
      pattern,
      data,
      deadline: Date.now() + timeoutMs,
    };
    const body = Buffer.from(JSON.stringify(message));
    // The server's span is a child of this one: the trace context sent is this span's.
    const span = spansHere()
      ? tracer().startSpan(`rpc ${pattern}`, {
          kind: SpanKind.CLIENT,
          attributes: {
            'rpc.system': 'custodian-amqp',
            'rpc.method': pattern,
            'messaging.destination.name': target.queue,
          },
        })
      : undefined;
    const headers = span ? messageContextUnder(span) : currentMessageContext();
    const started = performance.now();
    const observe = (outcome: string) => {
      rpcClientDuration.observe(
        { target: target.serviceName, pattern, outcome },
        (performance.now() - started) / 1000,
      );
      if (!span) return;
      span.setAttribute('custodian.rpc.outcome', outcome);
      if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      span.end();
    };
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        observe('timeout');
        reject(
          new DomainError('timeout', `The ${target.serviceName} service did not answer in time`),
        );
      }, timeoutMs);
      this.pending.set(correlationId, {
        resolve: (value: unknown) => {
          observe('ok');
          resolve(value as T);
        },
        reject: (error: Error) => {
          observe(rpcOutcome(error));
          reject(error);
        },
        timer,
        target,
        body,
        headers,
        deadline: Date.now() + timeoutMs,
      });
      try {
        this.publish(channel, target, correlationId, { body, headers }, timeoutMs);
      } catch {
        clearTimeout(timer);
        this.pending.delete(correlationId);
        observe('unavailable');
        reject(unavailable(target));
      }
    });
  }

  private publish(
    channel: Channel,
    target: RpcTarget,
    correlationId: string,
    { body, headers }: Pick<Pending, 'body' | 'headers'>,
    timeoutMs: number,
  ): void {
    channel.sendToQueue(target.queue, body, {
      correlationId,
      headers,
      replyTo: DIRECT_REPLY_TO,
      expiration: String(Math.max(1, Math.ceil(timeoutMs))),
      contentType: 'application/json',
    });
  }

  private onReply(message: ConsumeMessage | null): void {
    if (!message) return;
    const id = (message.properties as { correlationId?: string }).correlationId;
    const pending = id ? this.pending.get(id) : undefined;
    if (!id || !pending) return; // a reply that arrived after its timeout
    this.pending.delete(id);
    clearTimeout(pending.timer);
    // A handler's RawJson, as its bytes: the caller gets them without their being parsed here.
    const headers = message.properties.headers;
    if (headers?.[RAW_REPLY_HEADER] === RAW_REPLY_JSON) {
      const tag: unknown = headers[RAW_REPLY_TAG];
      pending.resolve(new RawJson(message.content, typeof tag === 'string' ? tag : undefined));
      return;
    }
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

  /** Fails the pending requests `which` picks with 503; the others wait for the reconnect. */
  private failAll(which: (pending: Pending) => boolean): void {
    for (const [id, pending] of this.pending) {
      if (!which(pending)) continue;
      clearTimeout(pending.timer);
      pending.reject(unavailable(pending.target));
      this.pending.delete(id);
    }
  }
}

/** The `outcome` label of a failed request: timeout and unavailable apart from the rest. */
function rpcOutcome(error: Error): string {
  const code = error instanceof DomainError ? error.code : 'error';
  return code === 'timeout' || code === 'unavailable' ? code : 'error';
}

function unavailable(target: RpcTarget): DomainError {
  return new DomainError(
    'unavailable',
    `The ${target.serviceName} service is unavailable; try again shortly`,
  );
}

/**
 * An app's link to one other app's RPC queue, on the app's RpcClient. Subclasses name the
 * queue and add the calls they make.
 */
export class RpcPeer {
  constructor(
    protected readonly client: RpcClient,
    readonly target: RpcTarget,
  ) {
    client.addTarget(target.queue);
  }

  /** A message of a contract: its request and reply types come from the contract. */
  send<C extends RpcContract>(
    contract: C,
    message: RequestOf<C>,
    timeoutMs = this.target.timeoutMs,
    identity?: RequestIdentity,
  ): Promise<ReplyOf<C>> {
    return this.client.request<ReplyOf<C>>(
      this.target,
      contract.pattern,
      message,
      timeoutMs,
      identity,
    );
  }

  /**
   * A message by pattern name alone, for callers that only have strings (the admin CLI, tests
   * that send what a producer might): the reply is whatever `T` the caller says it is.
   */
  request<T>(
    pattern: string,
    data: unknown,
    timeoutMs = this.target.timeoutMs,
    identity?: RequestIdentity,
  ): Promise<T> {
    return this.client.request<T>(this.target, pattern, data, timeoutMs, identity);
  }

  isConnected(): boolean {
    return this.client.isConnected();
  }
}

export interface RmqRpcClientOptions extends RpcTarget {
  url: string;
  connectionName: string;
}

/**
 * A peer with a connection of its own, for processes without the MessagingModule: the admin
 * CLI, benchmarks and tests.
 */
export class RmqRpcClient extends RpcPeer {
  private readonly connection: AmqpConnection;

  constructor(options: RmqRpcClientOptions) {
    const connection = new AmqpConnection({ url: options.url, name: options.connectionName });
    super(new RpcClient(connection), {
      queue: options.queue,
      timeoutMs: options.timeoutMs,
      serviceName: options.serviceName,
      resendAfterReconnect: options.resendAfterReconnect,
    });
    this.connection = connection;
  }

  /** Connects now; throws if the broker cannot be reached. */
  async connect(): Promise<void> {
    await this.client.start();
    await this.connection.open();
  }

  async close(): Promise<void> {
    await this.client.stop();
    await this.connection.close();
  }
}
