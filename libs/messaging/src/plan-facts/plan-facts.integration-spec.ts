import {
  PLAN_FACTS_ROUTING_KEY,
  planFactsQueueOf,
  type WorkspacePlanFacts,
} from '@custodian/contracts';
import {
  createTestDatabase,
  eventually,
  uniqueSuffix,
  type TestDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import { connect, type ChannelModel } from 'amqplib';
import { DataSource } from 'typeorm';
import { AmqpConnection, deleteTopology } from '../amqp-connection';
import { OutboxRelay } from '../outbox/outbox-relay';
import { OutboxWriter } from '../outbox/outbox-writer';
import { addOutboxContext, createOutboxTable } from '../outbox/outbox.table';
import { PlanFactsConsumer, WorkspacePlans, type PlanFactsOptions } from './plan-facts.module';
import { createWorkspacePlansTable, type WorkspacePlanRow } from './plan-facts.table';
import { declareAllPlanFactsQueues } from './plan-facts.topology';

/**
 * Plan facts from the gateway's outbox to a reader's copy, over the real broker and Postgres:
 * the gateway's relay publishes them, the reader's consumer stores the newest.
 */
const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const suffix = uniqueSuffix();
const exchange = `custodian.test.plan-facts.${suffix}`;
const options: PlanFactsOptions = { schema: 'reader', exchange, reader: 'register', waitMs: 0 };

let database: TestDatabase;
let db: DataSource;
let admin: ChannelModel;
const gatewayConnection = new AmqpConnection({
  url: RABBITMQ_URL,
  name: `plan-facts-gw-${suffix}`,
});
const readerConnection = new AmqpConnection({ url: RABBITMQ_URL, name: `plan-facts-rd-${suffix}` });
let relay: OutboxRelay;
let consumer: PlanFactsConsumer | undefined;
const writer = new OutboxWriter('gw');
const errors: string[] = [];

beforeAll(async () => {
  jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => {
    errors.push(String(message));
  });
  database = await createTestDatabase();
  db = await new DataSource({ type: 'postgres', url: database.url }).initialize();
  const runner = db.createQueryRunner();
  try {
    await runner.query(`CREATE SCHEMA gw`);
    await createOutboxTable(runner, 'gw');
    await addOutboxContext(runner, 'gw');
    await runner.query(`CREATE SCHEMA reader`);
    await createWorkspacePlansTable(runner, 'reader');
  } finally {
    await runner.release();
  }
  admin = await connect(RABBITMQ_URL);
  await gatewayConnection.open();
  await readerConnection.open();
  relay = new OutboxRelay(db, gatewayConnection, {
    exchange,
    schema: 'gw',
    intervalMs: 20,
    topology: declareAllPlanFactsQueues,
  });
  await relay.start();
}, 30_000);

afterAll(async () => {
  await consumer?.beforeApplicationShutdown();
  await relay?.stop();
  await gatewayConnection.close();
  await readerConnection.close();
  await admin?.close();
  await deleteTopology(RABBITMQ_URL, 'custodian-test-cleanup', {
    queues: [planFactsQueueOf(exchange, 'register'), planFactsQueueOf(exchange, 'webhook-worker')],
    exchanges: [exchange],
  });
  await db?.destroy();
  await database?.drop();
});

function facts(workspace: string, seats: number | null, asOf: string): WorkspacePlanFacts {
  return {
    workspace_id: workspace,
    plan: 'pro',
    api_access: true,
    limits: { ratePerMinute: 600, monthlyQuota: 100_000, assets: 5_000, people: 1_000, seats },
    as_of: asOf,
  };
}

/** Written to the gateway's outbox as WorkspacesService writes them, in a transaction. */
function state(stated: WorkspacePlanFacts): Promise<string> {
  return db.transaction((tx) => writer.writePlanFacts(tx, stated));
}

const plans = () => new WorkspacePlans(db, options);

function seatsOf(workspace: string): Promise<number | null | undefined> {
  return plans()
    .many([workspace])
    .then((found) => found.get(workspace)?.limits.seats);
}

describe('plan facts, gateway to reader', () => {
  it('keeps facts stated before the reader ever started, and stores them once it does', async () => {
    await state(facts('wsp_early', 3, '2026-01-01T00:00:00.000Z'));
    // Published: the gateway's relay declared the reader's queue, so the facts wait there.
    await eventually(async () => {
      const [row] = await db.query<Array<{ waiting: number }>>(
        `SELECT count(*)::int AS waiting FROM gw.outbox WHERE published_at IS NULL`,
      );
      if (row?.waiting !== 0) throw new Error('not published yet');
    });
    expect(await seatsOf('wsp_early')).toBeUndefined();
    consumer = new PlanFactsConsumer(db, readerConnection, options);
    await consumer.onApplicationBootstrap();
    await eventually(async () => expect(await seatsOf('wsp_early')).toBe(3));
  });

  it('keeps the newest facts: older ones arriving late or twice change nothing', async () => {
    await state(facts('wsp_order', 5, '2026-02-01T00:00:00.000Z'));
    await eventually(async () => expect(await seatsOf('wsp_order')).toBe(5));
    await state(facts('wsp_order', 1, '2026-01-15T00:00:00.000Z'));
    await state(facts('wsp_order', null, '2026-03-01T00:00:00.000Z'));
    await eventually(async () => expect(await seatsOf('wsp_order')).toBeNull());
    await state(facts('wsp_order', 9, '2026-02-15T00:00:00.000Z'));
    // A marker after the stale one: once it is stored, the stale one was handled before it.
    await state(facts('wsp_marker', 1, '2026-01-01T00:00:00.000Z'));
    await eventually(async () => expect(await seatsOf('wsp_marker')).toBe(1));
    const [row] = [...(await plans().many(['wsp_order'])).values()] as WorkspacePlanRow[];
    expect(row?.limits.seats).toBeNull();
    expect(row?.as_of.toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it('drops a message that is not plan facts, logs why, and goes on with the next', async () => {
    const channel = await admin.createChannel();
    channel.publish(
      exchange,
      PLAN_FACTS_ROUTING_KEY,
      Buffer.from(
        JSON.stringify({ id: 'evt_bad', data: { workspace_id: 'wsp_bad', plan: 'gold' } }),
      ),
      { messageId: 'evt_bad' },
    );
    await channel.close();
    await state(facts('wsp_after_bad', 2, '2026-01-01T00:00:00.000Z'));
    await eventually(async () => expect(await seatsOf('wsp_after_bad')).toBe(2));
    expect(await seatsOf('wsp_bad')).toBeUndefined();
    expect(errors.some((e) => e.includes('evt_bad') && e.includes('plan must be one of'))).toBe(
      true,
    );
  });

  it('a read waits up to waitMs for facts that are on their way, and no longer', async () => {
    const waiting = new WorkspacePlans(db, { ...options, waitMs: 5_000 }).of('wsp_late');
    await state(facts('wsp_late', 4, '2026-01-01T00:00:00.000Z'));
    expect((await waiting)?.limits.seats).toBe(4);
    const started = performance.now();
    expect(
      await new WorkspacePlans(db, { ...options, waitMs: 100 }).of('wsp_none'),
    ).toBeUndefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
  });
});
