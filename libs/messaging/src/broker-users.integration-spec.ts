import {
  ENDPOINT_DISABLED_ROUTING_KEY,
  endpointDisabledQueueOf,
  heavyLaneOf,
  PLAN_FACTS_ROUTING_KEY,
  type WorkspacePlanFacts,
} from '@custodian/contracts';
import { newId } from '@custodian/persistence';
import {
  ThrowawayVhost,
  createTestDatabase,
  eventually,
  rabbitmqctl,
  uniqueSuffix,
  type TestDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import type { Channel, ConfirmChannel } from 'amqplib';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AmqpConnection, delay, openConnection, type ChannelHandle } from './amqp-connection';
import {
  BROKER_USER_IDS,
  DEFAULT_BROKER_NAMES,
  DEFAULT_EXCHANGE,
  brokerDefinitions,
  brokerGrants,
  brokerUserName,
  permissionsOf,
  type BrokerDefinitions,
  type BrokerGrant,
  type BrokerUserId,
} from './broker-users';
import { declareEndpointDisabledQueue } from './endpoint-health/endpoint-disabled.topology';
import { declareDeadLetterQueue, declareEventsQueue } from './events/events.topology';
import { OutboxRelay } from './outbox/outbox-relay';
import { OutboxWriter } from './outbox/outbox-writer';
import { addOutboxContext, createOutboxTable } from './outbox/outbox.table';
import { PlanFactsConsumer, WorkspacePlans } from './plan-facts/plan-facts.module';
import { createWorkspacePlansTable } from './plan-facts/plan-facts.table';
import { declareAllPlanFactsQueues } from './plan-facts/plan-facts.topology';
import { QueueConsumer } from './queue-consumer';
import { RpcClient, RpcPeer } from './rpc-client';
import { RmqRpcServer } from './rpc-server';

/**
 * The broker users of broker-users.ts on the real broker. A throwaway vhost and users are
 * provisioned from brokerDefinitions() with `rabbitmqctl import_definitions` (ThrowawayVhost;
 * the document compose loads at boot and `npm run rabbitmq:definitions` prints); then each
 * app's own broker code (the RPC servers and clients, outbox relays, plan-facts consumers, the
 * worker's events topology and dead-letter watch, the admin CLI's client) runs as that app's
 * user, with the default names, since the vhost is the run's own. Then what a user must not do
 * is refused, and, last, every single permission is taken away in turn and the app's code
 * fails without it: nothing in the table is more than the apps need.
 */

const suffix = uniqueSuffix();
const vhost = new ThrowawayVhost('users');
const VHOST = vhost.name;
const names = DEFAULT_BROKER_NAMES;
const grants = brokerGrants();
const APP_USERS = ['gateway', 'register', 'webhook-worker', 'admin-cli'] as const;
type AppUser = (typeof APP_USERS)[number];

/** Users are the broker's, not the vhost's: each run names its own (`-t-<suffix>`). */
function userName(id: BrokerUserId): string {
  return `${brokerUserName(id)}-t-${suffix}`;
}
const passwords = Object.fromEntries(
  BROKER_USER_IDS.map((id) => [id, randomBytes(12).toString('hex')]),
) as Record<BrokerUserId, string>;

function urlOf(user: string, password: string): string {
  return vhost.urlOf(user, password);
}
const urls = Object.fromEntries(
  BROKER_USER_IDS.map((id) => [id, urlOf(userName(id), passwords[id])]),
) as Record<BrokerUserId, string>;

/**
 * Each app's permissions taken apart: a user with all of them (the baseline), then one user
 * per entry taken away (mutations() below), all provisioned with the suite's users, so that
 * the sweep at the end makes no rabbitmqctl call per case.
 */
const MUTANTS = APP_USERS.flatMap((id) =>
  [{ what: 'all of them', grant: grants[id], refusal: '' }, ...mutations(id)].map(
    (mutation, index) => ({ id, ...mutation, user: `${brokerUserName(id)}-m${index}-${suffix}` }),
  ),
);

function permissionEntry(user: string, grant: BrokerGrant): BrokerDefinitions['permissions'][0] {
  const { configure, write, read } = permissionsOf(grant);
  return { user, vhost: VHOST, configure, write, read };
}

function topicEntries(user: string, grant: BrokerGrant): BrokerDefinitions['topic_permissions'] {
  const { topic } = permissionsOf(grant);
  return topic ? [{ user, vhost: VHOST, ...topic }] : [];
}

// ---------------------------------------------------------------------------------------------
// Postgres: the outboxes and plan-facts copies the relays and consumers work on.

let database: TestDatabase;
let db: DataSource;
const gatewayOutbox = new OutboxWriter('gw');
const registerOutbox = new OutboxWriter('reg');

function facts(workspace: string): WorkspacePlanFacts {
  return {
    workspace_id: workspace,
    plan: 'pro',
    api_access: true,
    limits: { ratePerMinute: 600, monthlyQuota: 100_000, assets: 5_000, people: 1_000, seats: 7 },
    as_of: new Date().toISOString(),
  };
}

/** Waits until the relay of `schema` has published the rows `ids` (the broker confirmed them). */
async function published(schema: string, ids: string[], timeoutMs = 5_000): Promise<void> {
  await eventually(
    async () => {
      const rows = await db.query<Array<{ waiting: number }>>(
        `SELECT count(*)::int AS waiting FROM ${schema}.outbox
         WHERE id = ANY($1::text[]) AND published_at IS NULL`,
        [ids],
      );
      if (rows[0]?.waiting !== 0) throw new Error(`${schema} rows not published yet`);
    },
    { timeoutMs },
  );
}

// ---------------------------------------------------------------------------------------------
// Each app's broker code, as its app wires it (app.module.ts, MessagingModule, OutboxModule,
// PlanFactsModule, EventsModule), on one connection as one user.

/** One app's connection; `refused` resolves with the first ACCESS_REFUSED the broker sends. */
class OnBroker {
  readonly connection: AmqpConnection;
  readonly refused: Promise<string>;
  private readonly stops: Array<() => Promise<unknown>> = [];
  private onRefused: (message: string) => void = () => undefined;

  constructor(label: string, url: string) {
    this.refused = new Promise((resolve) => (this.onRefused = resolve));
    this.connection = new AmqpConnection({
      url,
      name: `custodian-test-${label}`,
      // Channel errors come here: a publish the broker refuses closes its channel with 403.
      log: (message) => {
        if (/ACCESS.REFUSED/.test(message)) this.onRefused(message);
      },
    });
  }

  /** Stopped in reverse order of start, the connection last. */
  onStop(stop: () => Promise<unknown>): void {
    this.stops.unshift(stop);
  }

  /**
   * Opens the connection with every channel already added: a setup the broker refuses
   * (declare, bind, consume) rejects here, naming it.
   */
  async open(): Promise<void> {
    await this.named(this.connection.open());
  }

  async stop(): Promise<void> {
    for (const stop of this.stops) await stop().catch(() => undefined);
    await this.connection.close();
  }

  /** `flow` unless the broker refuses something on the way: then rejects with the refusal. */
  until<T>(flow: Promise<T>): Promise<T> {
    return this.named(
      Promise.race([flow, this.refused.then((message) => Promise.reject(new Error(message)))]),
    );
  }

  /**
   * A failure named by the refusal behind it, when there is one: a request that fails as
   * `unavailable` once the broker closed its channel, or a setup cut short when the broker
   * closed another channel (a relay publishing a row left unpublished) is given a moment for
   * the refusal to be heard.
   */
  private async named<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      const refusal = await Promise.race([this.refused, delay(500).then(() => undefined)]);
      throw refusal === undefined ? error : new Error(refusal);
    }
  }
}

function listen(server: RmqRpcServer): Promise<void> {
  return new Promise((resolve, reject) => {
    void server.listen((error?: unknown) =>
      error === undefined
        ? resolve()
        : reject(error instanceof Error ? error : new Error('listen failed')),
    );
  });
}

/** An RPC server on `queue` that answers `whoami` with the queue and the app serving it. */
async function serve(app: OnBroker, queue: string, label: string): Promise<void> {
  const server = new RmqRpcServer(app.connection, { queue, prefetch: 8 });
  server.addHandler('whoami', () => Promise.resolve({ queue, served_by: label }));
  await listen(server);
  app.onStop(() => server.close());
}

/** The app's RpcClient (MessagingModule starts one in every app). */
async function rpcClient(app: OnBroker, targets: string[]): Promise<Record<string, RpcPeer>> {
  const client = new RpcClient(app.connection);
  const peers = Object.fromEntries(
    targets.map((queue) => [
      queue,
      new RpcPeer(client, { queue, timeoutMs: 3_000, serviceName: queue }),
    ]),
  );
  await client.start();
  app.onStop(() => client.stop());
  return peers;
}

async function relay(
  app: OnBroker,
  schema: string,
  topology?: (channel: Channel, exchange: string) => Promise<void>,
): Promise<void> {
  const outbox = new OutboxRelay(db, app.connection, {
    exchange: names.eventsExchange,
    schema,
    intervalMs: 25,
    ...(topology ? { topology } : {}),
  });
  await outbox.start();
  app.onStop(() => outbox.stop());
}

async function planFacts(
  app: OnBroker,
  schema: string,
  reader: 'register' | 'webhook-worker',
): Promise<void> {
  const consumer = new PlanFactsConsumer(db, app.connection, {
    schema,
    exchange: names.eventsExchange,
    reader,
  });
  await consumer.onApplicationBootstrap();
  app.onStop(() => consumer.beforeApplicationShutdown());
}

interface Gateway {
  app: OnBroker;
  peers: Record<string, RpcPeer>;
}

/** The gateway: its admin queue's server, its client of five queues, its outbox relay. */
async function startGateway(url: string): Promise<Gateway> {
  const app = new OnBroker('gateway', url);
  try {
    const peers = await rpcClient(app, [
      names.registerQueue,
      heavyLaneOf(names.registerQueue),
      names.registerAdminQueue,
      heavyLaneOf(names.registerAdminQueue),
      names.workerAdminQueue,
    ]);
    await serve(app, names.gatewayAdminQueue, 'gateway');
    await relay(app, 'gw', declareAllPlanFactsQueues);
    await app.open();
    return { app, peers };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

/** The register: four RPC servers (two queues, each with its heavy lane), outbox, plan facts. */
async function startRegister(url: string): Promise<OnBroker> {
  const app = new OnBroker('register', url);
  try {
    await rpcClient(app, []);
    for (const queue of [names.registerQueue, names.registerAdminQueue]) {
      await serve(app, queue, 'register');
      await serve(app, heavyLaneOf(queue), 'register');
    }
    await relay(app, 'reg');
    await planFacts(app, 'reg', 'register');
    // Its consumer of the worker's endpoint-disabled notices (EndpointDisabledConsumer).
    const notices = new QueueConsumer(app.connection, {
      queue: endpointDisabledQueueOf(names.eventsExchange),
      prefetch: 10,
      topology: (channel) => declareEndpointDisabledQueue(channel, names.eventsExchange),
      onMessage: (delivery) => {
        noticesReceived.push(delivery.message.fields.routingKey);
        delivery.ack();
      },
    });
    await notices.start();
    app.onStop(() => notices.stop(1_000));
    await app.open();
    return app;
  } catch (error) {
    await app.stop();
    throw error;
  }
}

interface Worker {
  app: OnBroker;
  /** Routing keys of the event messages consumed (acked, or rejected: `asset.deleted`). */
  received: string[];
  /** The dead-letter queue's depth, read as the dead-letter watch reads it. */
  deadLetters: () => Promise<number>;
}

/** The worker: its admin queue, plan facts, the events queue and the dead-letter watch. */
async function startWorker(url: string): Promise<Worker> {
  const app = new OnBroker('webhook-worker', url);
  const received: string[] = [];
  try {
    await rpcClient(app, []);
    await serve(app, names.workerAdminQueue, 'webhook-worker');
    await planFacts(app, 'wk', 'webhook-worker');
    // Its outbox: endpoint-disabled notices, for the register's queue (which it declares).
    await relay(app, 'wk', declareEndpointDisabledQueue);
    const events = new QueueConsumer(app.connection, {
      queue: names.eventsQueue,
      prefetch: 10,
      topology: (channel) =>
        declareEventsQueue(channel, {
          exchange: names.eventsExchange,
          queue: names.eventsQueue,
          deadLetterExchange: names.deadLetterExchange,
          deadLetterQueue: names.deadLetterQueue,
          deliveryLimit: 5,
        }),
      onMessage: (delivery) => {
        const key = delivery.message.fields.routingKey;
        received.push(key);
        // A message the worker cannot store: set aside in the dead-letter queue at once.
        if (key === 'asset.deleted') delivery.reject();
        else delivery.ack();
      },
    });
    await events.start();
    app.onStop(() => events.stop(1_000));
    const watch: ChannelHandle = await app.connection.addChannel({
      name: 'dead letters',
      setup: () => Promise.resolve(),
    });
    await app.open();
    const deadLetters = async () => {
      if (!watch.current) throw new Error('the dead-letter channel is closed');
      return (await declareDeadLetterQueue(watch.current, names.deadLetterQueue)).messageCount;
    };
    return { app, received, deadLetters };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

interface AdminCli {
  app: OnBroker;
  peers: Record<string, RpcPeer>;
}

/**
 * The admin CLI: cli.ts's RmqRpcClient is an RpcClient and an RpcPeer on a connection of its
 * own, as here, where the one connection also hears what the broker refuses.
 */
async function startAdminCli(url: string): Promise<AdminCli> {
  const app = new OnBroker('admin-cli', url);
  try {
    const peers = await rpcClient(app, [
      names.gatewayAdminQueue,
      names.registerAdminQueue,
      names.workerAdminQueue,
    ]);
    await app.open();
    return { app, peers };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

/**
 * One operation on a channel of its own as `url`'s user: `ok`, or the code the broker closed
 * the channel with (403 ACCESS_REFUSED). A publish is confirmed, so a refusal is seen.
 */
async function attempt(
  url: string,
  operation: (channel: ConfirmChannel) => Promise<unknown>,
): Promise<'ok' | number> {
  const connection = await openConnection(url, 'custodian-test-attempt');
  connection.on('error', () => undefined);
  try {
    const channel = await connection.createConfirmChannel();
    let closedWith: number | undefined;
    channel.on('error', (error: { code?: number }) => (closedWith = error.code));
    try {
      await operation(channel);
      await channel.close();
      return 'ok';
    } catch (error) {
      const code = (error as { code?: number }).code ?? closedWith;
      if (code === undefined) throw error;
      return code;
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Waits until a synchronous expectation passes. */
function waitFor(check: () => void): Promise<void> {
  return eventually(() => Promise.resolve().then(check));
}

async function publish(channel: ConfirmChannel, exchange: string, key: string): Promise<void> {
  channel.publish(exchange, key, Buffer.from('{}'));
  await channel.waitForConfirms();
}

// ---------------------------------------------------------------------------------------------

let gateway: Gateway;
let register: OnBroker | null = null;
/** Routing keys of the endpoint-disabled notices the register's consumer took. */
const noticesReceived: string[] = [];
let worker: Worker;
let cli: AdminCli;

jest.setTimeout(20_000);

beforeAll(async () => {
  // The servers and consumers log what the broker refuses; the assertions cover it.
  Logger.overrideLogger(false);
  database = await createTestDatabase();
  db = await new DataSource({ type: 'postgres', url: database.url }).initialize();
  const runner = db.createQueryRunner();
  try {
    for (const schema of ['gw', 'reg', 'wk']) await runner.query(`CREATE SCHEMA ${schema}`);
    for (const schema of ['gw', 'reg', 'wk']) {
      await createOutboxTable(runner, schema);
      await addOutboxContext(runner, schema);
    }
    for (const schema of ['reg', 'wk']) await createWorkspacePlansTable(runner, schema);
  } finally {
    await runner.release();
  }
  const users = brokerDefinitions({
    vhost: VHOST,
    users: BROKER_USER_IDS.map((id) => ({ id, name: userName(id), password: passwords[id] })),
  });
  await vhost.provision({
    ...users,
    users: [
      ...users.users,
      ...MUTANTS.map(({ user, id }) => ({ name: user, password: passwords[id], tags: [] })),
    ],
    permissions: [
      ...users.permissions,
      ...MUTANTS.map(({ user, grant }) => permissionEntry(user, grant)),
    ],
    topic_permissions: [
      ...users.topic_permissions,
      ...MUTANTS.flatMap(({ user, grant }) => topicEntries(user, grant)),
    ],
  });
  // Each app's whole setup: a declaration, binding or consumer the broker refuses fails here.
  worker = await startWorker(urls['webhook-worker']);
  register = await startRegister(urls.register);
  gateway = await startGateway(urls.gateway);
  cli = await startAdminCli(urls['admin-cli']);
}, 60_000);

afterAll(async () => {
  await cli?.app.stop();
  await gateway?.app.stop();
  await register?.stop();
  await worker?.app.stop();
  await db?.destroy();
  await database?.drop();
  await vhost.drop();
}, 60_000);

describe('each app on the broker as its own user', () => {
  it('provisions the users from the definitions document, each with its permissions', async () => {
    const listed = await rabbitmqctl('list_permissions', '-p', VHOST);
    for (const id of BROKER_USER_IDS) {
      const { configure, write, read } = permissionsOf(grants[id]);
      expect(listed).toContain([userName(id), configure, write, read].join('\t'));
    }
    const topics = await rabbitmqctl('list_topic_permissions', '-p', VHOST);
    const { topic } = permissionsOf(grants.register);
    expect(topics).toContain(
      [userName('register'), topic?.exchange, topic?.write, topic?.read].join('\t'),
    );
  });

  it('sets up every channel of every app (declarations, bindings, consumers)', () => {
    for (const app of [gateway.app, register!, worker.app]) {
      expect(app.connection.status()).toEqual({ up: true });
    }
  });

  it('the gateway calls the register on its four queues, and the worker on its admin queue', async () => {
    const answers = await Promise.all(
      Object.values(gateway.peers).map((peer) => peer.request('whoami', {})),
    );
    expect(answers).toEqual([
      { queue: names.registerQueue, served_by: 'register' },
      { queue: heavyLaneOf(names.registerQueue), served_by: 'register' },
      { queue: names.registerAdminQueue, served_by: 'register' },
      { queue: heavyLaneOf(names.registerAdminQueue), served_by: 'register' },
      { queue: names.workerAdminQueue, served_by: 'webhook-worker' },
    ]);
  });

  it('the admin CLI calls the three admin queues', async () => {
    const answers = await Promise.all(
      Object.values(cli.peers).map((peer) => peer.request('whoami', {})),
    );
    expect(answers).toEqual([
      { queue: names.gatewayAdminQueue, served_by: 'gateway' },
      { queue: names.registerAdminQueue, served_by: 'register' },
      { queue: names.workerAdminQueue, served_by: 'webhook-worker' },
    ]);
  });

  it('the gateway states plan facts and plan events; both readers keep the facts, the worker gets the event', async () => {
    const ids = await db.transaction(async (tx) => [
      await gatewayOutbox.writePlanFacts(tx, facts('wsp_facts')),
      await gatewayOutbox.write(tx, 'wsp_facts', 'plan.changed', {} as never),
    ]);
    await published('gw', ids);
    for (const schema of ['reg', 'wk']) {
      const copy = new WorkspacePlans(db, {
        schema,
        exchange: names.eventsExchange,
        reader: 'register',
        waitMs: 5_000,
      });
      expect((await copy.of('wsp_facts'))?.limits.seats).toBe(7);
    }
    await waitFor(() =>
      expect(worker.received).toEqual(
        expect.arrayContaining([PLAN_FACTS_ROUTING_KEY, 'plan.changed']),
      ),
    );
  });

  it("the worker's outbox publishes an endpoint-disabled notice to the register's queue", async () => {
    const before = noticesReceived.length;
    await published('wk', [await endpointDisabledNotice()]);
    await waitFor(() => expect(noticesReceived.length).toBe(before + 1));
    expect(noticesReceived.at(-1)).toBe(ENDPOINT_DISABLED_ROUTING_KEY);
  });

  it('the register publishes its events to the worker, who sets aside one it cannot take', async () => {
    const before = await worker.deadLetters();
    const ids = await db.transaction(async (tx) => [
      await registerOutbox.write(tx, 'wsp_events', 'asset.created', {} as never),
      await registerOutbox.write(tx, 'wsp_events', 'asset.deleted', {} as never),
    ]);
    await published('reg', ids);
    await waitFor(() =>
      expect(worker.received).toEqual(expect.arrayContaining(['asset.created', 'asset.deleted'])),
    );
    // Read as the worker's dead-letter watch reads it, as the worker's user.
    await eventually(async () => expect(await worker.deadLetters()).toBe(before + 1));
  });

  it("KEDA's user reads the events queue's length (a passive declare) and nothing else", async () => {
    expect(
      await attempt(urls.autoscaler, async (channel) => {
        const { queue } = await channel.checkQueue(names.eventsQueue);
        expect(queue).toBe(names.eventsQueue);
      }),
    ).toBe('ok');
    expect(
      await attempt(urls.autoscaler, (channel) =>
        channel.consume(names.eventsQueue, () => undefined),
      ),
    ).toBe(403);
  });
});

describe('what each user is refused (403 ACCESS_REFUSED)', () => {
  const planFactsOf = (reader: 'register' | 'webhook-worker') =>
    `${names.eventsExchange}.plan-facts.${reader}`;
  it.each<[BrokerUserId, string, (channel: ConfirmChannel) => Promise<unknown>]>([
    [
      'gateway',
      "consume the worker's events queue",
      (ch) => ch.consume(names.eventsQueue, () => undefined),
    ],
    [
      'gateway',
      "consume the register's plan facts",
      (ch) => ch.consume(planFactsOf('register'), () => undefined),
    ],
    [
      'gateway',
      'publish a catalog event it does not own (asset.created)',
      (ch) => publish(ch, names.eventsExchange, 'asset.created'),
    ],
    [
      'gateway',
      'bind a queue to every event (#)',
      (ch) => ch.bindQueue(planFactsOf('register'), names.eventsExchange, '#'),
    ],
    ['gateway', 'declare the dead-letter queue', (ch) => ch.assertQueue(names.deadLetterQueue)],
    [
      'register',
      "forge the gateway's plan facts",
      (ch) => publish(ch, names.eventsExchange, PLAN_FACTS_ROUTING_KEY),
    ],
    [
      'register',
      'bind its plan-facts queue to every event (#)',
      (ch) => ch.bindQueue(planFactsOf('register'), names.eventsExchange, '#'),
    ],
    [
      'register',
      "consume the gateway's admin queue",
      (ch) => ch.consume(names.gatewayAdminQueue, () => undefined),
    ],
    [
      'register',
      "consume the worker's events queue",
      (ch) => ch.consume(names.eventsQueue, () => undefined),
    ],
    [
      'webhook-worker',
      'publish to the events exchange',
      (ch) => publish(ch, names.eventsExchange, 'asset.created'),
    ],
    [
      'webhook-worker',
      "declare the register's RPC queue",
      (ch) => ch.assertQueue(names.registerQueue),
    ],
    [
      'webhook-worker',
      "consume the register's admin queue",
      (ch) => ch.consume(names.registerAdminQueue, () => undefined),
    ],
    [
      'admin-cli',
      "consume the gateway's admin queue",
      (ch) => ch.consume(names.gatewayAdminQueue, () => undefined),
    ],
    [
      'admin-cli',
      'publish to the events exchange',
      (ch) => publish(ch, names.eventsExchange, 'plan.changed'),
    ],
    ['admin-cli', "declare the worker's events queue", (ch) => ch.assertQueue(names.eventsQueue)],
    [
      'autoscaler',
      'publish to a queue through the default exchange',
      async (ch) => {
        ch.sendToQueue(names.eventsQueue, Buffer.from('{}'));
        await ch.waitForConfirms();
      },
    ],
  ])('%s may not %s', async (id, _what, operation) => {
    expect(await attempt(urls[id], operation)).toBe(403);
  });

  it('cannot stop a user with write on amq.default from sending to any queue by name (a known limit)', async () => {
    // RabbitMQ checks a publish to the default exchange as write on `amq.default`, whatever
    // queue the routing key names; every app needs it (RPC requests and replies, ADR 0001's
    // direct reply-to). docs/operations.md, "RabbitMQ users", says so.
    expect(grants.gateway.write).toContain(DEFAULT_EXCHANGE);
    expect(
      await attempt(urls.gateway, async (channel) => {
        channel.sendToQueue(names.eventsQueue, Buffer.from('{}'));
        await channel.waitForConfirms();
      }),
    ).toBe('ok');
  });
});

// ---------------------------------------------------------------------------------------------
// Every permission is needed: each entry taken away in turn, the app's code fails with 403.

/**
 * Drops the rows an earlier mutant's relay was refused, so that each case starts from an empty
 * outbox (its relay would publish them while the app sets up).
 */
/** An endpoint-disabled notice in the worker's outbox, as its auto-disable writes one. */
async function endpointDisabledNotice(): Promise<string> {
  const id = newId('evt');
  await db.query(
    `INSERT INTO wk.outbox (id, workspace_id, event, data) VALUES ($1, 'wsp_notice', $2, '{}')`,
    [id, ENDPOINT_DISABLED_ROUTING_KEY],
  );
  return id;
}

async function forgetUnpublished(schema: string): Promise<void> {
  await db.query(`DELETE FROM ${schema}.outbox WHERE published_at IS NULL`);
}

/** The app's code under the mutant user, with the other apps as they are; rejects on a 403. */
const EXERCISES: Record<AppUser, (url: string) => Promise<void>> = {
  gateway: async (url) => {
    await forgetUnpublished('gw');
    const mutant = await startGateway(url);
    try {
      await mutant.app.until(
        (async () => {
          await mutant.peers[names.registerQueue]!.request('whoami', {});
          const ids = await db.transaction(async (tx) => [
            await gatewayOutbox.writePlanFacts(tx, facts('wsp_mutant')),
            await gatewayOutbox.write(tx, 'wsp_mutant', 'plan.changed', {} as never),
          ]);
          await published('gw', ids);
        })(),
      );
    } finally {
      await mutant.app.stop();
    }
  },
  register: async (url) => {
    await forgetUnpublished('reg');
    const mutant = await startRegister(url);
    try {
      await mutant.until(
        (async () => {
          // The gateway's requests, answered by the mutant (the register of the suite is stopped).
          for (const [queue, peer] of Object.entries(gateway.peers)) {
            if (queue !== names.workerAdminQueue) await peer.request('whoami', {});
          }
          const ids = await db.transaction(async (tx) => [
            await registerOutbox.write(tx, 'wsp_mutant', 'asset.created', {} as never),
          ]);
          await published('reg', ids);
        })(),
      );
    } finally {
      await mutant.stop();
    }
  },
  'webhook-worker': async (url) => {
    await forgetUnpublished('wk');
    const mutant = await startWorker(url);
    try {
      await mutant.app.until(
        (async () => {
          await gateway.peers[names.workerAdminQueue]!.request('whoami', {});
          await mutant.deadLetters();
          await published('wk', [await endpointDisabledNotice()]);
        })(),
      );
    } finally {
      await mutant.app.stop();
    }
  },
  'admin-cli': async (url) => {
    const mutant = await startAdminCli(url);
    try {
      await mutant.app.until(
        Promise.all(Object.values(mutant.peers).map((peer) => peer.request('whoami', {}))),
      );
    } finally {
      await mutant.app.stop();
    }
  },
};

interface Mutation {
  what: string;
  grant: BrokerGrant;
  /** What the broker's refusal names: the resource taken away, or a topic. */
  refusal: string;
}

/** Every grant of `id` with one entry less, or one topic permission emptied. */
function mutations(id: AppUser): Mutation[] {
  const grant = grants[id];
  const found: Mutation[] = [];
  for (const kind of ['configure', 'write', 'read'] as const) {
    for (const name of grant[kind]) {
      found.push({
        what: `${kind} on ${name}`,
        grant: { ...grant, [kind]: grant[kind].filter((other) => other !== name) },
        refusal: `'${name}' in vhost`,
      });
    }
  }
  if (grant.topic) {
    for (const kind of ['write', 'read'] as const) {
      if (grant.topic[kind].length === 0) continue;
      found.push({
        what: `topic ${kind} on ${grant.topic.exchange} (${grant.topic[kind].join(', ')})`,
        grant: { ...grant, topic: { ...grant.topic, [kind]: [] } },
        refusal: `access to topic`,
      });
    }
  }
  return found;
}

describe.each(APP_USERS)('every permission of %s is needed', (id) => {
  // The suite's own app of this kind stops, so that the mutant alone serves its queues (the
  // mutant gateway's relay publishes the gateway's outbox).
  beforeAll(async () => {
    if (id === 'register') {
      await register?.stop();
      register = null;
    }
    if (id === 'webhook-worker') await worker.app.stop();
    if (id === 'gateway') await gateway.app.stop();
  });

  afterAll(async () => {
    if (id === 'register') register = await startRegister(urls.register);
    if (id === 'webhook-worker') worker = await startWorker(urls['webhook-worker']);
    if (id === 'gateway') gateway = await startGateway(urls.gateway);
  });

  const [baseline, ...mutants] = MUTANTS.filter((mutant) => mutant.id === id);

  it('with all of them, the code works (the baseline of the mutants below)', async () => {
    await expect(EXERCISES[id](urlOf(baseline!.user, passwords[id]))).resolves.toBeUndefined();
  });

  it.each(mutants.map((mutant) => [mutant.what, mutant] as const))(
    'without %s it fails, refused for that',
    async (_what, mutant) => {
      const failure = EXERCISES[id](urlOf(mutant.user, passwords[id]));
      await expect(failure).rejects.toThrow(/ACCESS.REFUSED/);
      // Refused for the entry taken away, not for something else on the way.
      await expect(failure).rejects.toThrow(mutant.refusal);
    },
  );
});
