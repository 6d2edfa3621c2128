import type { PublishedEvent } from '@custodian/contracts';
import {
  createTestDatabase,
  eventually,
  uniqueSuffix,
  type TestDatabase,
} from '@custodian/testing';
import { connect, type ChannelModel } from 'amqplib';
import type { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AmqpConnection } from '../amqp-connection';
import { OutboxListener } from './outbox-listener';
import { OutboxRelay } from './outbox-relay';
import {
  addOutboxContext,
  createOutboxTable,
  indexPublishedOutbox,
  notifyOnOutboxInsert,
  outboxChannel,
} from './outbox.table';

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const suffix = uniqueSuffix();
let database: TestDatabase;
let db: DataSource;

jest.setTimeout(15_000);

beforeAll(async () => {
  database = await createTestDatabase();
  db = await new DataSource({ type: 'postgres', url: database.url }).initialize();
  const runner = db.createQueryRunner();
  try {
    await runner.query(`CREATE SCHEMA app`);
    await createOutboxTable(runner, 'app');
    await indexPublishedOutbox(runner, 'app');
    await addOutboxContext(runner, 'app');
    await notifyOnOutboxInsert(runner, 'app');
  } finally {
    await runner.release();
  }
}, 30_000);

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

let rowCount = 0;
/** `count` outbox rows, each inserted by a statement of its own, in one transaction. */
async function insertRows(count: number, commit = true): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `evt_${suffix}_${rowCount++}`);
  const runner = db.createQueryRunner();
  await runner.startTransaction();
  try {
    for (const id of ids) {
      await runner.query(
        `INSERT INTO app.outbox (id, workspace_id, event, data) VALUES ($1, 'wsp_1', 'asset.created', '{}')`,
        [id],
      );
    }
    if (commit) await runner.commitTransaction();
    else await runner.rollbackTransaction();
  } finally {
    await runner.release();
  }
  return ids;
}

/** The listener's connections still open, by the application name it was given. */
async function connectionsNamed(name: string): Promise<number> {
  const [row] = await db.query<Array<{ count: number }>>(
    `SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = $1`,
    [name],
  );
  return row?.count ?? 0;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

/** Resolves once `check` holds (eventually's 5 s unless told). */
function until(check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void> {
  return eventually(
    async () => {
      if (!(await check())) throw new Error('not yet');
    },
    timeoutMs === undefined ? undefined : { timeoutMs },
  );
}

async function unpublished(): Promise<number> {
  const [row] = await db.query<Array<{ waiting: number }>>(
    `SELECT count(*)::int AS waiting FROM app.outbox WHERE published_at IS NULL`,
  );
  return row?.waiting ?? 0;
}

/** Starts a relay with nothing left unpublished by earlier tests. */
async function startRelay(relay: OutboxRelay, connection: AmqpConnection): Promise<void> {
  await db.query(`UPDATE app.outbox SET published_at = now() WHERE published_at IS NULL`);
  await connection.open();
  await relay.start();
}

/** Stops what startRelay started, deletes the test's queue and exchange, closes `admin`. */
async function stopRelay(
  relay: OutboxRelay | undefined,
  connection: AmqpConnection,
  admin: ChannelModel,
  topology: { queue: string; exchange: string },
): Promise<void> {
  await relay?.stop();
  await connection.close();
  const channel = await admin.createChannel();
  await channel.deleteQueue(topology.queue);
  await channel.deleteExchange(topology.exchange);
  await admin.close();
}

describe('OutboxListener: LISTEN on the outbox trigger, on a connection of its own', () => {
  const name = `outbox-listener-test-${suffix}`;
  const heard = { notify: 0, listening: 0 };
  const lines: string[] = [];
  let listener: OutboxListener;

  beforeAll(async () => {
    listener = new OutboxListener({
      url: database.url,
      channel: outboxChannel('app'),
      applicationName: name,
      onNotify: () => heard.notify++,
      onListening: () => heard.listening++,
      retryMs: 20,
      log: (line) => lines.push(line),
    });
    await listener.start();
  });

  afterAll(() => listener.stop());

  it('hears one notification per committed transaction, however many rows it wrote', async () => {
    expect(listener.listening).toBe(true);
    expect(heard.listening).toBe(1);
    const before = heard.notify;
    await insertRows(3);
    await until(() => heard.notify > before);
    await settle();
    expect(heard.notify - before).toBe(1);
  });

  it('hears nothing of a transaction that rolled back', async () => {
    const before = heard.notify;
    await insertRows(2, false);
    await settle();
    expect(heard.notify).toBe(before);
  });

  it('connects again when its connection is killed, says so, and hears what comes next', async () => {
    const [killed] = await db.query<Array<{ count: number }>>(
      `SELECT count(pg_terminate_backend(pid))::int AS count FROM pg_stat_activity WHERE application_name = $1`,
      [name],
    );
    expect(killed?.count).toBe(1);
    await until(() => heard.listening === 2);
    expect(lines[0]).toMatch(/^outbox listener disconnected \(.+\); polling until it is back$/);
    expect(lines[1]).toBe('outbox listener connected again');
    const before = heard.notify;
    await insertRows(1);
    await until(() => heard.notify > before);
  });

  it('finds out when its connection no longer hears the channel, and listens again', async () => {
    // What a pooler in transaction mode, or a connection dropped without a word, amounts to:
    // a connection that is up and hears nothing. Only the heartbeat can tell.
    const said: string[] = [];
    let listened = 0;
    const quiet = new OutboxListener({
      url: database.url,
      channel: outboxChannel('app'),
      onNotify: () => undefined,
      onListening: () => listened++,
      retryMs: 20,
      heartbeatMs: 50,
      timeoutMs: 200,
      log: (line) => said.push(line),
    });
    try {
      await quiet.start();
      expect(listened).toBe(1);
      await (quiet as unknown as { client: Client }).client.query('UNLISTEN *');
      await until(() => listened === 2);
      expect(said[0]).toMatch(/its own notification did not come back within 200 ms/);
      expect(quiet.listening).toBe(true);
    } finally {
      await quiet.stop();
    }
  });

  it('leaves no connection behind when stopped, and hears nothing after', async () => {
    let heardAfterStop = 0;
    const other = new OutboxListener({
      url: database.url,
      channel: outboxChannel('app'),
      applicationName: `${name}-stopped`,
      onNotify: () => heardAfterStop++,
      onListening: () => undefined,
    });
    await other.start();
    expect(await connectionsNamed(`${name}-stopped`)).toBe(1);
    await insertRows(1);
    await until(() => heardAfterStop === 1);
    await other.stop();
    expect(other.listening).toBe(false);
    expect(await connectionsNamed(`${name}-stopped`)).toBe(0);
    await insertRows(1);
    await settle();
    expect(heardAfterStop).toBe(1);
  });

  it('keeps trying a database it cannot reach, without throwing', async () => {
    const errors: string[] = [];
    let listening = 0;
    const unreachable = new OutboxListener({
      url: 'postgres://postgres@127.0.0.1:1/nowhere',
      channel: outboxChannel('app'),
      onNotify: () => undefined,
      onListening: () => listening++,
      retryMs: 20,
      log: (line) => errors.push(line),
    });
    await expect(unreachable.start()).resolves.toBeUndefined();
    await settle();
    await unreachable.stop();
    expect(listening).toBe(0);
    // One line for the outage, not one per try.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^outbox listener disconnected \(.*ECONNREFUSED.*\)/);
  });
});

describe('OutboxRelay with listen: a commit is published at once, not at the next poll', () => {
  const exchange = `custodian.test.outbox.${suffix}`;
  const queue = `custodian.test.outbox.${suffix}`;
  let admin: ChannelModel;
  const received: string[] = [];
  const connection = new AmqpConnection({ url: RABBITMQ_URL, name: `outbox-listen-${suffix}` });
  let relay: OutboxRelay;

  beforeAll(async () => {
    admin = await connect(RABBITMQ_URL);
    const channel = await admin.createChannel();
    // As the relay declares it.
    await channel.assertExchange(exchange, 'topic', { durable: true });
    await channel.assertQueue(queue, { durable: false, autoDelete: true });
    await channel.bindQueue(queue, exchange, '#');
    await channel.consume(
      queue,
      (message) => {
        if (message) received.push((JSON.parse(message.content.toString()) as PublishedEvent).id);
      },
      { noAck: true },
    );
    // An hour between polls: only a notification can explain a row published within seconds.
    relay = new OutboxRelay(db, connection, {
      exchange,
      schema: 'app',
      intervalMs: 3_600_000,
      listen: { url: database.url, applicationName: `outbox-relay-test-${suffix}` },
    });
    await startRelay(relay, connection);
  });

  afterAll(() => stopRelay(relay, connection, admin, { queue, exchange }));

  it('publishes rows within moments of their commit, then each later commit too', async () => {
    const first = await insertRows(2);
    await until(() => first.every((id) => received.includes(id)));
    const second = await insertRows(1);
    await until(() => second.every((id) => received.includes(id)));
    // The consumer can hear a row before the relay's UPDATE of published_at commits (the relay
    // marks rows after the broker's confirm), so this waits for the mark rather than reading it
    // once: CI saw 1 here when it read too early.
    await until(async () => (await unpublished()) === 0);
  });

  it('without listen, publishes at its poll instead', async () => {
    await relay.stop();
    relay = new OutboxRelay(db, connection, { exchange, schema: 'app', intervalMs: 20 });
    await relay.start();
    const ids = await insertRows(1);
    await until(() => ids.every((id) => received.includes(id)));
    expect(await connectionsNamed(`outbox-relay-test-${suffix}`)).toBe(0);
  });
});

describe('OutboxRelay with listen, while the broker returns every event (no queue bound)', () => {
  const exchange = `custodian.test.outbox.unbound.${suffix}`;
  const queue = `custodian.test.outbox.unbound.${suffix}`;
  const connection = new AmqpConnection({ url: RABBITMQ_URL, name: `outbox-unbound-${suffix}` });
  let admin: ChannelModel;
  let relay: OutboxRelay;
  let drains: jest.SpyInstance;

  beforeAll(async () => {
    admin = await connect(RABBITMQ_URL);
    relay = new OutboxRelay(db, connection, {
      exchange,
      schema: 'app',
      intervalMs: 2_000,
      listen: { url: database.url },
    });
    drains = jest.spyOn(relay as unknown as { publishBatch: () => unknown }, 'publishBatch');
    await startRelay(relay, connection);
  });

  afterAll(() => stopRelay(relay, connection, admin, { queue, exchange }));

  it('tries a returned row again at its poll, not at every commit, and sends it once bound', async () => {
    const before = drains.mock.calls.length;
    await insertRows(1);
    await until(() => drains.mock.calls.length > before);
    await settle();
    const tried = drains.mock.calls.length;
    expect(await unpublished()).toBe(1);
    // Commits during the pause wake nothing: the rows wait for the poll, 2 s after the drain.
    for (let i = 0; i < 5; i++) await insertRows(1);
    await settle();
    expect(drains.mock.calls.length).toBe(tried);
    expect(await unpublished()).toBe(6);

    const channel = await admin.createChannel();
    await channel.assertQueue(queue, { durable: false, autoDelete: false });
    await channel.bindQueue(queue, exchange, '#');
    await channel.close();
    // The next poll, at most 2 s after the last drain.
    await until(async () => (await unpublished()) === 0, 5_000);
  });
});
