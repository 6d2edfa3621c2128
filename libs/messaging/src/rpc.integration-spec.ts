import { DomainError, RawJson, type DomainErrorCode } from '@custodian/contracts';
import { eventually, uniqueSuffix } from '@custodian/testing';
import { Logger } from '@nestjs/common';
import { connect, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { RmqRpcClient } from './rpc-client';
import { currentRpcRequest } from './rpc-request-context';
import { RmqRpcServer } from './rpc-server';
import { RAW_REPLY_HEADER, RAW_REPLY_JSON, RAW_REPLY_TAG } from './rpc-wire';

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const suffix = uniqueSuffix();
const queues: string[] = [];
const servers: RmqRpcServer[] = [];
const clients: RmqRpcClient[] = [];
let admin: ChannelModel;

jest.setTimeout(10_000);

function newQueue(): string {
  const queue = `custodian.test.rpc.${suffix}.${queues.length}`;
  queues.push(queue);
  return queue;
}

type Handler = (data: unknown) => unknown;

/** A server on `queue` answering the given patterns, already consuming. */
async function startServer(queue: string, handlers: Record<string, Handler>) {
  const server = new RmqRpcServer(
    { url: RABBITMQ_URL, name: `rpc-test-server-${suffix}` },
    { queue, prefetch: 10 },
  );
  for (const [pattern, handler] of Object.entries(handlers)) {
    server.addHandler(pattern, (data: unknown) => Promise.resolve().then(() => handler(data)));
  }
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    void server.listen((error?: unknown) => {
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error('listen failed'));
    });
  });
  return server;
}

async function startClient(queue: string, timeoutMs = 2_000): Promise<RmqRpcClient> {
  const client = new RmqRpcClient({
    url: RABBITMQ_URL,
    queue,
    timeoutMs,
    connectionName: `rpc-test-client-${suffix}`,
    serviceName: 'test',
  });
  clients.push(client);
  await client.connect();
  return client;
}

/** The DomainError a request rejects with, and how long it took to reject. */
async function failure(
  request: Promise<unknown>,
): Promise<{ code: DomainErrorCode; message: string; ms: number }> {
  const started = Date.now();
  try {
    await request;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const { code, message } = error as DomainError;
    return { code, message, ms: Date.now() - started };
  }
  throw new Error('expected the request to fail');
}

/** Waits until a synchronous expectation passes. */
function waitFor(check: () => void, timeoutMs?: number): Promise<void> {
  return eventually(() => Promise.resolve().then(check), { timeoutMs });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

beforeAll(async () => {
  // The server logs handler failures through Nest's logger; the assertions cover them.
  Logger.overrideLogger(false);
  admin = await connect(RABBITMQ_URL);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

afterAll(async () => {
  const channel = await admin.createChannel();
  for (const queue of queues) await channel.deleteQueue(queue);
  await admin.close();
});

/** Sends a request as it is and waits for the reply message, body and properties as received. */
async function rawReply(queue: string, body: string): Promise<ConsumeMessage> {
  const channel = await admin.createChannel();
  try {
    const reply = new Promise<ConsumeMessage>((resolve) => {
      void channel.consume(
        'amq.rabbitmq.reply-to',
        (message) => {
          if (message) resolve(message);
        },
        { noAck: true },
      );
    });
    channel.sendToQueue(queue, Buffer.from(body), { replyTo: 'amq.rabbitmq.reply-to' });
    return await reply;
  } finally {
    await channel.close().catch(() => undefined);
  }
}

describe('RmqRpcClient and RmqRpcServer over RabbitMQ', () => {
  it('sends a request and gets the handler response back', async () => {
    const queue = newQueue();
    const received: unknown[] = [];
    await startServer(queue, {
      'echo.upper': (data) => {
        received.push(data);
        return { text: (data as { text: string }).text.toUpperCase(), n: 2 };
      },
    });
    const client = await startClient(queue);

    await expect(client.request('echo.upper', { text: 'hello' })).resolves.toEqual({
      text: 'HELLO',
      n: 2,
    });
    expect(received).toEqual([{ text: 'hello' }]);
  });

  it('keeps concurrent replies apart by correlation id', async () => {
    const queue = newQueue();
    await startServer(queue, {
      double: async (data) => {
        await sleep(Math.random() * 30);
        return (data as number) * 2;
      },
    });
    const client = await startClient(queue);

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.request<number>('double', i)),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
  });

  it('answers null for a handler that returns nothing', async () => {
    const queue = newQueue();
    await startServer(queue, { nothing: () => undefined });
    const client = await startClient(queue);

    await expect(client.request('nothing', {})).resolves.toBeNull();
  });

  it('rejects with a DomainError when a handler throws an RpcErrorPayload', async () => {
    const queue = newQueue();
    await startServer(queue, {
      'asset.get': () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- the RpcErrorPayload shape
        throw { code: 'not_found', message: 'x' };
      },
    });
    const client = await startClient(queue);

    const error = await failure(client.request('asset.get', { id: 'a' }));
    expect(error).toMatchObject({ code: 'not_found', message: 'x' });
  });

  it('carries the code and message of a DomainError a handler throws', async () => {
    const queue = newQueue();
    await startServer(queue, {
      'asset.create': () => {
        throw new DomainError('conflict', 'asset_tag AT-1 is taken');
      },
    });
    const client = await startClient(queue);

    const error = await failure(client.request('asset.create', {}));
    expect(error).toMatchObject({ code: 'conflict', message: 'asset_tag AT-1 is taken' });
  });

  it('hides an unexpected handler error behind code internal', async () => {
    const queue = newQueue();
    await startServer(queue, {
      boom: () => {
        throw new Error('password=secret in a stack trace');
      },
    });
    const client = await startClient(queue);

    const error = await failure(client.request('boom', {}));
    expect(error).toMatchObject({ code: 'internal', message: 'internal error' });
  });

  it('rejects a request for a pattern nobody handles', async () => {
    const queue = newQueue();
    await startServer(queue, { known: () => 'ok' });
    const client = await startClient(queue);

    const error = await failure(client.request('unknown.pattern', {}));
    expect(error).toMatchObject({ code: 'internal', message: 'no handler for unknown.pattern' });
    // The server is still answering after it.
    await expect(client.request('known', {})).resolves.toBe('ok');
  });

  it('rejects with code timeout when the handler is slower than the client timeout', async () => {
    const queue = newQueue();
    let finished = 0;
    await startServer(queue, {
      slow: async () => {
        await sleep(800);
        finished++;
        return 'late';
      },
    });
    const client = await startClient(queue, 300);

    const error = await failure(client.request('slow', {}));
    expect(error.code).toBe('timeout');
    expect(error.message).toBe('The test service did not answer in time');
    expect(error.ms).toBeGreaterThanOrEqual(290);
    expect(error.ms).toBeLessThanOrEqual(300 + 200);
    // The late reply is dropped without disturbing the client.
    await waitFor(() => expect(finished).toBe(1));
    await sleep(50);
    expect(client.isConnected()).toBe(true);
  });

  it('honours a per-request timeout shorter than the default', async () => {
    const queue = newQueue();
    await startServer(queue, { slow: async () => sleep(600) });
    const client = await startClient(queue, 5_000);

    const error = await failure(client.request('slow', {}, 150));
    expect(error.code).toBe('timeout');
    expect(error.ms).toBeLessThanOrEqual(150 + 200);
  });

  it('times out when no server consumes the queue', async () => {
    const queue = newQueue();
    const client = await startClient(queue, 200);

    const error = await failure(client.request('anything', {}));
    expect(error.code).toBe('timeout');
    expect(error.ms).toBeGreaterThanOrEqual(190);
    expect(error.ms).toBeLessThanOrEqual(200 + 200);
  });

  it('rejects at once with code unavailable after the client is closed', async () => {
    const queue = newQueue();
    await startServer(queue, { ping: () => 'pong' });
    const client = await startClient(queue);
    await expect(client.request('ping', {})).resolves.toBe('pong');

    await client.close();
    expect(client.isConnected()).toBe(false);
    const error = await failure(client.request('ping', {}));
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe('The test service is unavailable; try again shortly');
    expect(error.ms).toBeLessThan(50);
  });

  it('fails pending requests with unavailable when the connection drops, then reconnects', async () => {
    const queue = newQueue();
    await startServer(queue, {
      slow: async () => sleep(1_000),
      ping: () => 'pong',
    });
    const client = await startClient(queue, 5_000);

    const pending = failure(client.request('slow', {}));
    await sleep(50);
    // Close the connection under the client, as a broker restart would.
    const managed = (client as unknown as { connection: { model: ChannelModel } }).connection;
    await managed.model.close();

    const error = await pending;
    expect(error.code).toBe('unavailable');
    expect(error.ms).toBeLessThan(500);
    const immediate = await failure(client.request('ping', {}));
    expect(immediate.code).toBe('unavailable');
    expect(immediate.ms).toBeLessThan(50);

    await waitFor(() => expect(client.isConnected()).toBe(true), 3_000);
    await expect(client.request('ping', {})).resolves.toBe('pong');
  });

  it('sends a pending request again, same id, after a reconnect when its target applies requests once', async () => {
    const queue = newQueue();
    const seen: string[] = [];
    await startServer(queue, {
      slow: async () => {
        seen.push(currentRpcRequest()?.id ?? 'none');
        await sleep(300);
        return 'done';
      },
    });
    const client = new RmqRpcClient({
      url: RABBITMQ_URL,
      queue,
      timeoutMs: 5_000,
      connectionName: `rpc-test-client-${suffix}`,
      serviceName: 'test',
      resendAfterReconnect: true,
    });
    clients.push(client);
    await client.connect();

    const pending = client.request('slow', {});
    await waitFor(() => expect(seen).toHaveLength(1));
    // The reply of this first run is lost with the connection.
    const managed = (client as unknown as { connection: { model: ChannelModel } }).connection;
    await managed.model.close();

    await expect(pending).resolves.toBe('done');
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);
  });

  it('never executes a request that expired in the queue before a server started', async () => {
    const queue = newQueue();
    const client = await startClient(queue, 200);
    let invocations = 0;
    const seen: unknown[] = [];

    const error = await failure(client.request('count', { n: 'expired' }));
    expect(error.code).toBe('timeout');
    await sleep(500 - error.ms);

    await startServer(queue, {
      count: (data) => {
        invocations++;
        seen.push(data);
        return invocations;
      },
    });
    await sleep(300);
    expect(invocations).toBe(0);

    // The server does consume the queue: a fresh request is executed, once.
    await expect(client.request('count', { n: 'fresh' }, 2_000)).resolves.toBe(1);
    expect(seen).toEqual([{ n: 'fresh' }]);
  });

  it('lets an in-flight handler finish and reply before close() returns', async () => {
    const queue = newQueue();
    let started = 0;
    let finished = 0;
    const server = await startServer(queue, {
      work: async () => {
        started++;
        await sleep(400);
        finished++;
        return 'done';
      },
    });
    const client = await startClient(queue, 8_000);

    const reply = client.request('work', {});
    await waitFor(() => expect(started).toBe(1));
    expect(finished).toBe(0);

    await server.close();
    expect(finished).toBe(1);
    expect(server.isConnected()).toBe(false);
    await expect(reply).resolves.toBe('done');

    // Closed means no longer consuming: the next request is not answered.
    const error = await failure(client.request('work', {}, 300));
    expect(error.code).toBe('timeout');
    expect(started).toBe(1);
  });

  /** Sends a raw request the way a broken or slow client would, and waits for its reply. */
  async function rawRequest(queue: string, body: string): Promise<unknown> {
    const reply = await rawReply(queue, body);
    return JSON.parse(reply.content.toString('utf8'));
  }

  it('answers a request that is JSON but not an object, and keeps serving', async () => {
    const queue = newQueue();
    await startServer(queue, { ping: () => 'pong' });
    const client = await startClient(queue);

    for (const body of ['null', '5', '"text"', '{"data":1}']) {
      await expect(rawRequest(queue, body)).resolves.toEqual({
        ok: false,
        err: { code: 'invalid_input', message: 'request has no pattern' },
      });
    }
    await expect(client.request('ping', {})).resolves.toBe('pong');
  });

  it('skips a delivered request whose deadline has passed, without running the handler', async () => {
    const queue = newQueue();
    let runs = 0;
    await startServer(queue, { work: () => ++runs });

    const expired = JSON.stringify({ pattern: 'work', data: {}, deadline: Date.now() - 1 });
    await expect(rawRequest(queue, expired)).resolves.toEqual({
      ok: false,
      err: { code: 'timeout', message: 'request expired before it was processed' },
    });
    expect(runs).toBe(0);

    const live = JSON.stringify({ pattern: 'work', data: {}, deadline: Date.now() + 5_000 });
    await expect(rawRequest(queue, live)).resolves.toEqual({ ok: true, response: 1 });
  });
});

describe('RawJson replies over RabbitMQ', () => {
  /** About 2 MB of JSON with 1- to 4-byte characters and escapes, as a handler would make it. */
  const rows = Array.from({ length: 10_000 }, (_, i) => ({
    id: `ast_${i}`,
    name: `Asset ${i} é€\u{1F600} "quoted" \u0001`,
    category: i % 3 === 0 ? null : { name: 'Laptops' },
  }));
  const bytes = Buffer.from(JSON.stringify(rows));

  it('hands the client the bytes the handler made, as a RawJson, not parsed', async () => {
    const queue = newQueue();
    await startServer(queue, { 'list.raw': () => new RawJson<typeof rows>(bytes) });
    const client = await startClient(queue);

    const reply = await client.request<RawJson<typeof rows>>('list.raw', {});
    expect(reply).toBeInstanceOf(RawJson);
    expect(reply.bytes.equals(bytes)).toBe(true);
    expect(reply.parse()).toEqual(rows);
  });

  it('carries their tag to the client in a header, and no tag when the handler gave none', async () => {
    const queue = newQueue();
    await startServer(queue, {
      tagged: () => new RawJson(bytes, 'f00d.42'),
      untagged: () => new RawJson(bytes),
    });
    const client = await startClient(queue);

    const tagged = await client.request<RawJson>('tagged', {});
    expect(tagged.tag).toBe('f00d.42');
    expect(tagged.bytes.equals(bytes)).toBe(true);
    expect((await client.request<RawJson>('untagged', {})).tag).toBeUndefined();
    const raw = await rawReply(queue, JSON.stringify({ pattern: 'tagged', data: {} }));
    expect(raw.properties.headers).toEqual({
      [RAW_REPLY_HEADER]: RAW_REPLY_JSON,
      [RAW_REPLY_TAG]: 'f00d.42',
    });
  });

  it('sends them as the message body itself, marked by a header, with no envelope', async () => {
    const queue = newQueue();
    await startServer(queue, { 'list.raw': () => new RawJson(bytes), plain: () => rows[0] });

    const raw = await rawReply(queue, JSON.stringify({ pattern: 'list.raw', data: {} }));
    expect(raw.content.equals(bytes)).toBe(true);
    expect(raw.properties.headers).toEqual({ [RAW_REPLY_HEADER]: RAW_REPLY_JSON });
    expect(raw.properties.contentType).toBe('application/json');

    // Any other reply keeps the envelope and has no such header.
    const plain = await rawReply(queue, JSON.stringify({ pattern: 'plain', data: {} }));
    expect(plain.properties.headers?.[RAW_REPLY_HEADER]).toBeUndefined();
    expect(JSON.parse(plain.content.toString('utf8'))).toEqual({ ok: true, response: rows[0] });
  });

  it('does not even look inside: bytes that are not JSON still arrive as they are', async () => {
    const queue = newQueue();
    await startServer(queue, { broken: () => new RawJson(Buffer.from('[1,')) });
    const client = await startClient(queue);

    const reply = await client.request<RawJson>('broken', {});
    expect(reply.bytes.toString('utf8')).toBe('[1,');
  });

  it('keeps the error path: a handler that fails answers the envelope and the client rejects', async () => {
    const queue = newQueue();
    await startServer(queue, {
      'list.raw': (data) => {
        if ((data as { fail?: boolean }).fail) throw new DomainError('overloaded', 'busy');
        return new RawJson(bytes);
      },
    });
    const client = await startClient(queue);

    const error = await failure(client.request('list.raw', { fail: true }));
    expect(error).toMatchObject({ code: 'overloaded', message: 'busy' });
    const reply = await client.request<RawJson>('list.raw', {});
    expect(reply.bytes.equals(bytes)).toBe(true);
  });
});
