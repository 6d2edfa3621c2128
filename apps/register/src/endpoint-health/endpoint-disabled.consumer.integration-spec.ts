import {
  ENDPOINT_DISABLED_ROUTING_KEY,
  endpointDisabledQueueOf,
  type EndpointDisabledNotice,
} from '@custodian/contracts';
import { AmqpConnection, deleteTopology } from '@custodian/messaging';
import { newId } from '@custodian/persistence';
import {
  MailSink,
  createMigratedDatabase,
  eventually,
  uniqueSuffix,
  type MigratedDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import { connect, type ChannelModel } from 'amqplib';
import type { DataSource } from 'typeorm';
import { loadRegisterConfig } from '../config/register-config';
import { registerDataSource } from '../database/data-source';
import { Mailer } from '../mail/mailer';
import { migrateRegister } from '../migrate';
import { EndpointDisabledConsumer } from './endpoint-disabled.consumer';
import { EndpointDisabledNotices } from './endpoint-disabled-notices';

/**
 * The worker's notice of an auto-disabled endpoint, from the real broker to a real SMTP server:
 * the register's consumer e-mails the workspace's active owners and admins (nobody else), once
 * per message id however often the broker hands it over.
 */
const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const suffix = uniqueSuffix();
const exchange = `custodian.test.endpoint-disabled.${suffix}`;
const workspace = 'wsp_health';

let store: MigratedDatabase;
let db: DataSource;
let admin: ChannelModel;
let mailer: Mailer;
let consumer: EndpointDisabledConsumer;
const connection = new AmqpConnection({ url: RABBITMQ_URL, name: `endpoint-disabled-${suffix}` });
const sink = new MailSink();
const errors: string[] = [];

async function member(email: string, role: string, status: string, space = workspace) {
  await db.query(
    `INSERT INTO register.members (id, workspace_id, email, role, status, joined_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $5 = 'active' THEN now() END)`,
    [newId('usr'), space, email, role, status],
  );
}

function notice(endpointId: string): EndpointDisabledNotice {
  return {
    workspace_id: workspace,
    endpoint_id: endpointId,
    url: 'https://hooks.example.com/down',
    reason: 'auto',
    consecutive_failures: 3,
    failing_since: '2026-01-14T08:00:00.000Z',
    disabled_at: '2026-01-15T09:30:00.000Z',
  };
}

/** Publishes the envelope as the worker's relay does, `times` times (a redelivery's copy). */
async function publish(id: string, data: unknown, times = 1): Promise<void> {
  const channel = await admin.createConfirmChannel();
  try {
    const body = Buffer.from(
      JSON.stringify({
        id,
        event: ENDPOINT_DISABLED_ROUTING_KEY,
        created_at: new Date().toISOString(),
        data,
        workspace_id: workspace,
      }),
    );
    for (let i = 0; i < times; i++) {
      channel.publish(exchange, ENDPOINT_DISABLED_ROUTING_KEY, body, {
        persistent: true,
        mandatory: true,
        messageId: id,
        contentType: 'application/json',
      });
    }
    await channel.waitForConfirms();
  } finally {
    await channel.close();
  }
}

/** The notices the register recorded, by message id. */
async function recorded(id: string): Promise<Array<{ recipients: number }>> {
  return db.query(
    `SELECT recipients FROM register.endpoint_disabled_notices WHERE message_id = $1`,
    [id],
  );
}

beforeAll(async () => {
  jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => {
    errors.push(String(message));
  });
  await sink.start();
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 4));
  db = store.db;
  const config = loadRegisterConfig({
    DATABASE_URL: store.database.url,
    SMTP_URL: sink.url,
    EVENTS_EXCHANGE: exchange,
    PUBLIC_BASE_URL: 'https://custodian.example',
  });
  await member('owner@acme.example', 'owner', 'active');
  await member('admin@acme.example', 'admin', 'active');
  await member('invited-admin@acme.example', 'admin', 'invited');
  await member('manager@acme.example', 'manager', 'active');
  await member('member@acme.example', 'member', 'active');
  await member('other-owner@beta.example', 'owner', 'active', 'wsp_other');
  admin = await connect(RABBITMQ_URL);
  await connection.open();
  mailer = new Mailer(config);
  consumer = new EndpointDisabledConsumer(
    connection,
    config,
    new EndpointDisabledNotices(db, mailer, config),
  );
  await consumer.onApplicationBootstrap();
}, 30_000);

afterAll(async () => {
  await consumer?.beforeApplicationShutdown();
  await mailer?.onApplicationShutdown();
  await connection.close();
  await admin?.close();
  await deleteTopology(RABBITMQ_URL, 'custodian-test-cleanup', {
    queues: [endpointDisabledQueueOf(exchange)],
    exchanges: [exchange],
  });
  await sink.stop();
  await store?.close();
  jest.restoreAllMocks();
});

it("e-mails the workspace's active owners and admins once, however often the message comes", async () => {
  const id = newId('evt');
  await publish(id, notice('whe_down'), 3);
  await eventually(async () => {
    if (sink.mails.length < 2) throw new Error(`${sink.mails.length} e-mails so far`);
    expect(await recorded(id)).toEqual([{ recipients: 2 }]);
  });
  // The copies are handled one after another: give them the time to (wrongly) send more.
  await publish(newId('evt'), { not: 'a notice' });
  await eventually(() => {
    if (!errors.some((line) => line.includes('refused'))) throw new Error('not refused yet');
    return Promise.resolve();
  });
  await new Promise((resolve) => setTimeout(resolve, 200));

  expect(sink.mails.map((mail) => mail.to).sort()).toEqual([
    ['admin@acme.example'],
    ['owner@acme.example'],
  ]);
  const [match] = await sink.latest('owner@acme.example', /Custodian disabled .*/);
  expect(match).toContain('https://hooks.example.com/down (whe_down)');
  expect(sink.mails[0]!.raw).toMatch(/Subject: Webhook endpoint disabled: https:\/\/hooks/);
  expect(sink.mails[0]!.text).toContain('https://custodian.example/console/webhooks/whe_down');
});

it('e-mails again for a later disable of the same endpoint (a new message)', async () => {
  const before = sink.countTo('owner@acme.example');
  await publish(newId('evt'), notice('whe_down'));
  await eventually(() =>
    sink.countTo('owner@acme.example') === before + 1
      ? Promise.resolve()
      : Promise.reject(new Error('no second e-mail yet')),
  );
  expect(sink.countTo('manager@acme.example')).toBe(0);
  expect(sink.countTo('invited-admin@acme.example')).toBe(0);
  expect(sink.countTo('other-owner@beta.example')).toBe(0);
});
