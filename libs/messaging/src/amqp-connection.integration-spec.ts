import { eventually, uniqueSuffix } from '@custodian/testing';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { AmqpConnection } from './amqp-connection';
import { QueueConsumer, type Delivery } from './queue-consumer';
import { RpcClient, RpcPeer } from './rpc-client';
import { RmqRpcServer } from './rpc-server';

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const suffix = uniqueSuffix();
const queues: string[] = [];
const connections: AmqpConnection[] = [];
let admin: ChannelModel;

jest.setTimeout(15_000);

function newQueue(): string {
  const queue = `custodian.test.connection.${suffix}.${queues.length}`;
  queues.push(queue);
  return queue;
}

function newConnection(): AmqpConnection {
  const connection = new AmqpConnection({ url: RABBITMQ_URL, name: `connection-test-${suffix}` });
  connections.push(connection);
  return connection;
}

/** The amqplib connection under an AmqpConnection, to break it as a broker restart would. */
function socketOf(connection: AmqpConnection): ChannelModel {
  const model = (connection as unknown as { model: ChannelModel | null }).model;
  if (!model) throw new Error('not connected');
  return model;
}

function waitFor(check: () => void, timeoutMs = 5_000): Promise<void> {
  return eventually(() => Promise.resolve().then(check), { timeoutMs });
}

beforeAll(async () => {
  admin = await connect(RABBITMQ_URL);
});

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});

afterAll(async () => {
  const channel = await admin.createChannel();
  for (const queue of queues) await channel.deleteQueue(queue);
  await admin.close();
});

describe('AmqpConnection: one connection, channels that come back', () => {
  it('sets up every channel, again after the broker closes one of them', async () => {
    const connection = newConnection();
    const setups = { a: 0, b: 0 };
    const a = await connection.addChannel({
      name: 'a',
      setup: () => (setups.a++, Promise.resolve()),
    });
    const b = await connection.addChannel({
      name: 'b',
      setup: () => (setups.b++, Promise.resolve()),
    });
    await connection.open();
    expect(setups).toEqual({ a: 1, b: 1 });
    expect(connection.status()).toEqual({ up: true });

    // A passive check of a queue that does not exist: the broker closes channel a (404).
    const broken = a.current as Channel;
    await expect(broken.checkQueue(`${newQueue()}.missing`)).rejects.toThrow(/NOT_FOUND/);

    await waitFor(() => expect(setups).toEqual({ a: 2, b: 2 }));
    await waitFor(() => expect(connection.status()).toEqual({ up: true }));
    expect(a.current).not.toBe(broken);
    expect(b.current).not.toBeNull();
  });

  it('reports the connection down, then back, when it is closed under it', async () => {
    const connection = newConnection();
    await connection.addChannel({ name: 'a', setup: () => Promise.resolve() });
    await connection.open();
    let downs = 0;
    connection.onDown(() => downs++);

    await socketOf(connection).close();
    expect(connection.status()).toEqual({ up: false, message: 'not connected' });
    expect(downs).toBe(1);
    await waitFor(() => expect(connection.status()).toEqual({ up: true }));
  });

  it('opens a channel added after the connection at once; a removed one stays closed', async () => {
    const connection = newConnection();
    await connection.open();
    let setups = 0;
    const late = await connection.addChannel({
      name: 'late',
      setup: () => (setups++, Promise.resolve()),
    });
    expect(setups).toBe(1);
    expect(late.current).not.toBeNull();

    await connection.removeChannel(late);
    expect(late.current).toBeNull();
    await socketOf(connection).close();
    await waitFor(() => expect(connection.isConnected()).toBe(true));
    expect(setups).toBe(1);
  });

  it('names a channel whose setup keeps failing, and does not reconnect after close()', async () => {
    const connection = newConnection();
    await connection.open();
    let failing = true;
    await connection.addChannel({
      name: 'events',
      setup: () => (failing ? Promise.reject(new Error('refused')) : Promise.resolve()),
    });
    await waitFor(() => expect(connection.isConnected()).toBe(false));
    failing = false;
    await waitFor(() => expect(connection.status()).toEqual({ up: true }));

    await connection.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(connection.status()).toEqual({ up: false, message: 'not connected' });
  });

  it('fails at open() when the broker cannot be reached', async () => {
    const connection = new AmqpConnection({ url: 'amqp://guest:guest@127.0.0.1:1', name: 'x' });
    await expect(connection.open()).rejects.toThrow(/ECONNREFUSED/);
    expect(connection.isConnected()).toBe(false);
  });
});

describe('QueueConsumer: the one drain', () => {
  /** A consumer on a fresh queue and connection, already consuming. */
  async function consumerOn(
    prefetch: number,
    onMessage: (delivery: Delivery) => void,
  ): Promise<{ queue: string; consumer: QueueConsumer }> {
    const queue = newQueue();
    const connection = newConnection();
    await connection.open();
    const consumer = new QueueConsumer(connection, {
      queue,
      prefetch,
      topology: async (channel) => {
        await channel.assertQueue(queue, { durable: false });
      },
      onMessage,
    });
    await consumer.start();
    return { queue, consumer };
  }

  it('waits at stop() for messages taken, and leaves the abandoned ones to the broker', async () => {
    const taken: Delivery[] = [];
    const { queue, consumer } = await consumerOn(10, (delivery) => taken.push(delivery));
    const publisher = await admin.createChannel();
    for (const n of [1, 2, 3]) publisher.sendToQueue(queue, Buffer.from(String(n)));
    await waitFor(() => expect(taken).toHaveLength(3));
    expect(consumer.inFlight).toBe(3);

    let stopped = false;
    const stopping = consumer.stop(5_000).then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    taken[0]?.ack();
    taken[1]?.abandon();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    taken[2]?.reject();
    await stopping;
    expect(consumer.inFlight).toBe(0);
    expect(consumer.isConsuming()).toBe(false);

    // Only the abandoned message is still there: acked and rejected ones are gone.
    await eventually(async () => {
      const left = await publisher.get(queue, { noAck: true });
      expect(left && left.content.toString()).toBe('2');
    });
    await publisher.close();
  });

  it('stops at once when nothing is in flight, and settles a message only once', async () => {
    const taken: Delivery[] = [];
    const { queue, consumer } = await consumerOn(1, (delivery) => {
      delivery.ack();
      delivery.reject(); // ignored: the first settlement counts
      taken.push(delivery);
    });
    const publisher = await admin.createChannel();
    publisher.sendToQueue(queue, Buffer.from('x'));
    await waitFor(() => expect(taken).toHaveLength(1));
    const started = Date.now();
    await consumer.stop(5_000);
    expect(Date.now() - started).toBeLessThan(500);
    expect((await publisher.checkQueue(queue)).messageCount).toBe(0);
    await publisher.close();
  });
});

describe('RpcClient: one per connection, shared by the peers of an app', () => {
  it('reaches two queues through one reply channel, and fails both peers when the link drops', async () => {
    const [first, second] = [newQueue(), newQueue()];
    const serving = newConnection();
    await serving.open();
    const servers = [first, second].map((queue, index) => {
      const server = new RmqRpcServer(serving, { queue, prefetch: 4 });
      server.addHandler('who', () => Promise.resolve(`server ${index + 1}`));
      server.addHandler('slow', () => new Promise((resolve) => setTimeout(resolve, 2_000)));
      return server;
    });
    for (const server of servers) {
      await new Promise<void>((resolve, reject) => {
        void server.listen((error?: unknown) => {
          if (error === undefined) resolve();
          else reject(error instanceof Error ? error : new Error('listen failed'));
        });
      });
    }

    const calling = newConnection();
    const client = new RpcClient(calling);
    const peers = [first, second].map(
      (queue) => new RpcPeer(client, { queue, timeoutMs: 3_000, serviceName: queue }),
    );
    await client.start();
    await calling.open();
    await expect(Promise.all(peers.map((peer) => peer.request('who', {})))).resolves.toEqual([
      'server 1',
      'server 2',
    ]);

    const pending = peers.map((peer) => peer.request('slow', {}).catch((error: Error) => error));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await socketOf(calling).close();
    const errors = await Promise.all(pending);
    expect(errors.map((error) => (error as Error).message)).toEqual([
      `The ${first} service is unavailable; try again shortly`,
      `The ${second} service is unavailable; try again shortly`,
    ]);

    await waitFor(() => expect(client.isConnected()).toBe(true));
    await expect(peers[1]?.request('who', {})).resolves.toBe('server 2');
    for (const server of servers) await server.close();
    expect(servers.every((server) => !server.isConnected())).toBe(true);
    // The servers' channels are gone; the connection they shared stays up.
    expect(serving.status()).toEqual({ up: true });
  });
});
