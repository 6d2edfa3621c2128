import {
  RegisterAdminPatterns,
  WorkerAdminPatterns,
  type AssetDetail,
  type CreatedWebhookView,
} from '@custodian/contracts';
import {
  BROKER_NAME_VARIABLES,
  brokerDefinitions,
  brokerUserName,
  type BrokerNames,
  type BrokerUserId,
} from '@custodian/messaging';
import { ThrowawayVhost, WebhookReceiver, eventually, uniqueSuffix } from '@custodian/testing';
import { randomBytes } from 'node:crypto';
import { TestStack, type AppName, type Tenant } from './support/stack';

/**
 * Issue 31, item 6: the three real apps and the admin CLI, each connected to RabbitMQ as the
 * user compose and Kubernetes give it (libs/messaging/src/broker-users.ts), on a vhost of the
 * test's own. broker-users.integration-spec.ts runs the apps' broker code piece by piece; this
 * runs the apps as they are wired, so a queue an app starts to serve or send to without its
 * permission fails here: the app would not be ready, or a request would be refused.
 */
describe('each app on RabbitMQ as its own user (e2e, real processes)', () => {
  const vhost = new ThrowawayVhost('e2e-users');
  const suffix = uniqueSuffix();
  const users: Record<Exclude<BrokerUserId, 'autoscaler'>, { name: string; password: string }> = {
    gateway: account('gateway'),
    register: account('register'),
    'webhook-worker': account('webhook-worker'),
    'admin-cli': account('admin-cli'),
  };
  const url = (id: keyof typeof users) => vhost.urlOf(users[id].name, users[id].password);
  const apps: Record<AppName, string> = {
    gateway: url('gateway'),
    register: url('register'),
    worker: url('webhook-worker'),
  };
  // Warnings logged: an ACCESS_REFUSED the apps survive by reconnecting is seen in the logs.
  const stack = new TestStack({
    broker: { apps, adminCli: url('admin-cli') },
    env: { LOG_LEVEL: 'warn' },
  });
  const receiver = new WebhookReceiver();
  let tenant: Tenant;

  function account(id: BrokerUserId): { name: string; password: string } {
    return {
      name: `${brokerUserName(id)}-e2e-${suffix}`,
      password: randomBytes(12).toString('hex'),
    };
  }

  beforeAll(async () => {
    // The permissions follow the stack's own queue names, as they follow a deployment's.
    const names = Object.fromEntries(
      Object.entries(BROKER_NAME_VARIABLES).map(([key, variable]) => [key, stack.env[variable]]),
    ) as Record<keyof BrokerNames, string | undefined>;
    expect(Object.values(names).every((name) => name?.endsWith(stack.suffix))).toBe(true);
    await vhost.provision(
      brokerDefinitions({
        vhost: vhost.name,
        names: names as BrokerNames,
        users: Object.entries(users).map(([id, user]) => ({ id: id as BrokerUserId, ...user })),
      }),
    );
    await Promise.all([receiver.start(), stack.start()]);
    tenant = await stack.tenant('pro', 'write');
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
    await vhost.drop();
  }, 30_000);

  it('every app is ready: its /health finds RabbitMQ up, every channel set up', async () => {
    for (const app of ['gateway', 'register', 'worker'] as const) {
      const health = (await (await stack.opsRequest(app, '/health')).json()) as {
        details: Record<string, { status: string }>;
      };
      expect({ app, rabbitmq: health.details.rabbitmq?.status }).toEqual({ app, rabbitmq: 'up' });
    }
  });

  it('works end to end: the admin CLI, the API, plan facts, events and their webhook', async () => {
    // The CLI's user reaches the worker's and the register's admin queues (the gateway's made
    // the tenant), and the real CLI process does too.
    const endpoint = await stack.workerAdminCall<CreatedWebhookView>(
      WorkerAdminPatterns.webhookCreate,
      { workspace: tenant.workspace.id, url: receiver.url('/users'), events: 'asset.created' },
    );
    expect(endpoint.id).toMatch(/^whe_/);
    await expect(
      stack.registerAdminCall(RegisterAdminPatterns.invitationList, {
        workspace: tenant.workspace.id,
      }),
    ).resolves.toEqual([]);
    const shown = await stack.cli('workspace', 'show', '--workspace', tenant.workspace.id);
    expect({ code: shown.code, stderr: shown.stderr }).toEqual({ code: 0, stderr: '' });
    // The gateway asks the register; the register's event reaches the worker, which delivers
    // it only with the gateway's plan facts (API access) in its copy.
    const created = await tenant.post<AssetDetail>('/assets', { name: 'Broker users' });
    expect(created.status).toBe(201);
    const [delivered] = await eventually(
      () => {
        const got = receiver.on('/users');
        return got.length > 0 ? Promise.resolve(got) : Promise.reject(new Error('not yet'));
      },
      { timeoutMs: 10_000 },
    );
    expect(JSON.parse(delivered!.rawBody)).toMatchObject({
      event: 'asset.created',
      data: { id: created.body.id },
    });
  });

  it('nothing the apps did was refused by the broker', () => {
    const refused = Object.entries(stack.logs()).filter(([, log]) => /ACCESS.REFUSED/.test(log));
    expect(refused).toEqual([]);
  });
});
