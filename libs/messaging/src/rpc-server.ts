import { RawJson, isRpcErrorPayload, type RpcErrorPayload } from '@custodian/contracts';
import { Server, RmqContext, type CustomTransportStrategy } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import { lastValueFrom } from 'rxjs';
import { AmqpConnection } from './amqp-connection';
import { QueueConsumer, type Delivery } from './queue-consumer';
import { runInRpcRequest } from './rpc-request-context';
import {
  REQUEST_ID_HEADER,
  messageContextFrom,
  newRequestId,
  rpcServerDuration,
  debugLines,
  inSpan,
  runInMessageContext,
} from '@custodian/observability';
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import {
  RAW_REPLY_HEADER,
  RAW_REPLY_TAG,
  RAW_REPLY_JSON,
  type RpcReplyMessage,
  type RpcRequestMessage,
} from './rpc-wire';

export interface RpcServerOptions {
  queue: string;
  /** Messages in flight per consumer; bounds the work a replica takes on at once. */
  prefetch: number;
  /**
   * Handlers declared with `@Handles(contract, transport)` are served by the server with
   * this id only; handlers without one by every server of the app.
   */
  transport?: symbol;
}

/**
 * A thin Nest transport on amqplib for request/response, one per queue, on the app's shared
 * connection. Unlike the built-in RMQ transport it acks manually after the reply is sent and
 * bounds prefetch. Requests carry a TTL and a deadline (set by the client) so a request nobody
 * answered in time is dropped instead of being executed after the caller has given up. A
 * handler that answers a RawJson has its bytes sent as the reply's body, marked by
 * RAW_REPLY_HEADER, instead of inside the serialised envelope.
 */
export class RmqRpcServer extends Server implements CustomTransportStrategy {
  private readonly connection: AmqpConnection;
  private readonly ownsConnection: boolean;
  private readonly consumer: QueueConsumer;

  /** `connection` is the app's (MessagingModule); `{url, name}` opens one of its own. */
  constructor(
    connection: AmqpConnection | { url: string; name: string },
    private readonly options: RpcServerOptions,
  ) {
    super();
    this.connection =
      connection instanceof AmqpConnection
        ? connection
        : new AmqpConnection({ ...connection, log: (message) => this.warn(message) });
    this.ownsConnection = !(connection instanceof AmqpConnection);
    if (options.transport) this.setTransportId(options.transport);
    this.consumer = new QueueConsumer(this.connection, {
      queue: options.queue,
      prefetch: options.prefetch,
      topology: async (channel) => {
        await channel.assertQueue(options.queue, { durable: true });
      },
      onMessage: (delivery) => void this.handle(delivery),
      log: (message) => this.warn(message),
    });
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      if (this.ownsConnection) await this.connection.open();
      await this.consumer.start();
      callback();
    } catch (error) {
      callback(error);
    }
  }

  /**
   * Stops taking requests, lets those in flight finish and reply (a write that committed must
   * not be redelivered and run twice), then closes its channel.
   */
  async close(): Promise<void> {
    await this.consumer.stop();
    if (this.ownsConnection) await this.connection.close();
  }

  on(): never {
    throw new Error('RmqRpcServer does not support event listeners');
  }

  unwrap<T>(): T {
    return this.connection as T;
  }

  private warn(message: string): void {
    this.logger.warn(message);
  }

  /** True while consuming. */
  isConnected(): boolean {
    return this.consumer.isConsuming();
  }

  /**
   * In the request context the message brought (its X-Request-Id), so every line logged while
   * serving it, and every message and outbox row it causes, names the request. A request from
   * a caller without one (the admin CLI) gets an id of its own.
   */
  private handle(delivery: Delivery): Promise<void> {
    const carried = messageContextFrom(delivery.message.properties.headers);
    const context =
      carried?.[REQUEST_ID_HEADER] === undefined
        ? { ...carried, [REQUEST_ID_HEADER]: newRequestId() }
        : carried;
    return runInMessageContext(context, () =>
      inSpan(
        `rpc ${this.options.queue}`,
        { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'custodian-amqp' } },
        (span) => this.serve(delivery, span),
      ),
    );
  }

  private async serve(delivery: Delivery, span: Span | undefined): Promise<void> {
    const started = performance.now();
    const seen: { pattern?: string } = {};
    let reply: RpcReplyMessage | RawJson;
    try {
      reply = await this.process(delivery, seen);
    } catch (error) {
      this.logger.error(error);
      reply = failure({ code: 'internal', message: 'internal error' });
    }
    const outcome = reply instanceof RawJson || reply.ok ? 'ok' : reply.err.code;
    const ms = performance.now() - started;
    // A pattern nobody declared is not a label: a caller could make up any number of them.
    const pattern =
      seen.pattern && this.messageHandlers.has(seen.pattern) ? seen.pattern : 'unknown';
    rpcServerDuration.observe({ queue: this.options.queue, pattern, outcome }, ms / 1000);
    if (span) {
      span.updateName(`rpc ${pattern}`);
      span.setAttributes({ 'rpc.method': pattern, 'custodian.rpc.outcome': outcome });
      if (outcome === 'internal') span.setStatus({ code: SpanStatusCode.ERROR });
    }
    if (debugLines()) {
      this.logger.debug?.(
        `${seen.pattern ?? '(no pattern)'} on ${this.options.queue}: ${outcome} in ${ms.toFixed(1)} ms`,
      );
    }
    const { replyTo, correlationId } = delivery.message.properties as {
      replyTo?: string;
      correlationId?: string;
    };
    try {
      if (replyTo && reply instanceof RawJson) {
        // The handler's bytes are the body: no envelope, so no second serialisation of them.
        delivery.channel.sendToQueue(replyTo, reply.bytes, {
          correlationId,
          contentType: 'application/json',
          headers: {
            [RAW_REPLY_HEADER]: RAW_REPLY_JSON,
            ...(reply.tag === undefined ? {} : { [RAW_REPLY_TAG]: reply.tag }),
          },
        });
      } else if (replyTo) {
        delivery.channel.sendToQueue(replyTo, Buffer.from(JSON.stringify(reply)), {
          correlationId,
          contentType: 'application/json',
        });
      }
    } catch (error) {
      // The channel closed under us; the broker requeues the unacked request.
      this.logger.warn(`Could not reply on ${this.options.queue}: ${(error as Error).message}`);
    }
    delivery.ack();
  }

  /** The reply: the envelope, or a handler's RawJson to be sent as it is. */
  /** `seen.pattern`: the pattern the request named, for the caller's log line. */
  private async process(
    delivery: Delivery,
    seen: { pattern?: string },
  ): Promise<RpcReplyMessage | RawJson> {
    let request: RpcRequestMessage;
    try {
      request = JSON.parse(delivery.message.content.toString('utf8')) as RpcRequestMessage;
    } catch {
      return failure({ code: 'invalid_input', message: 'request is not valid JSON' });
    }
    if (typeof request !== 'object' || request === null || typeof request.pattern !== 'string') {
      return failure({ code: 'invalid_input', message: 'request has no pattern' });
    }
    seen.pattern = request.pattern;
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
      const context = new RmqContext([delivery.message, delivery.channel, request.pattern]);
      // A request from an older client has no id: one is made up, which recognises nothing.
      const identity = {
        id: typeof request.id === 'string' && request.id !== '' ? request.id : randomUUID(),
        ...(typeof request.deadline === 'number' ? { deadline: request.deadline } : {}),
        ...(typeof request.fingerprint === 'string' ? { fingerprint: request.fingerprint } : {}),
        ...(typeof request.formerId === 'string' ? { formerId: request.formerId } : {}),
      };
      const response = await runInRpcRequest(identity, async () => {
        const result$ = this.transformToObservable<unknown>(await handler(request.data, context));
        return lastValueFrom(result$, { defaultValue: null });
      });
      if (response instanceof RawJson) return response;
      return { ok: true, response: response ?? null };
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
