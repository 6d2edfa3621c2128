import type { AssetDetail, PublishedEvent } from '@custodian/contracts';
import { openConnection } from '@custodian/messaging';
import { eventually } from '@custodian/testing';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { execFile } from 'node:child_process';
import { hostname } from 'node:os';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { TestStack, type Tenant } from './support/stack';

const run = promisify(execFile);

/** Closes, from the broker's side, every connection whose client properties mention `fragment`. */
async function cutConnections(fragment: string): Promise<number> {
  const { stdout } = await run('rabbitmqctl', [
    '-q',
    'list_connections',
    'pid',
    'client_properties',
  ]);
  const targets = stdout
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([pid, name]) => pid?.startsWith('<') && name?.includes(fragment));
  for (const [pid] of targets) {
    await run('rabbitmqctl', ['close_connection', pid!, 'cut by the outbox relay test']);
  }
  return targets.length;
}

describe('outbox relay: events published with confirms, nothing lost (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;
  let connection: ChannelModel;
  let channel: Channel;
  const received: Array<{ event: PublishedEvent; message: ConsumeMessage }> = [];
  const queue = `custodian.test.events.${stack.suffix}`;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    connection = await openConnection(stack.env.RABBITMQ_URL!, 'custodian-test-events');
    channel = await connection.createChannel();
    await channel.assertExchange(stack.env.EVENTS_EXCHANGE!, 'topic', { durable: true });
    await channel.assertQueue(queue, { durable: false, autoDelete: true });
    await channel.bindQueue(queue, stack.env.EVENTS_EXCHANGE!, '#');
    await channel.consume(
      queue,
      (message) => {
        if (message) {
          received.push({
            event: JSON.parse(message.content.toString()) as PublishedEvent,
            message,
          });
        }
      },
      { noAck: true },
    );
  }, 30_000);

  afterAll(async () => {
    await connection?.close();
    await stack.stop();
  });

  async function unpublished(): Promise<number> {
    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM register.outbox WHERE published_at IS NULL`,
      );
      return rows[0]!.n;
    } finally {
      await client.end();
    }
  }

  it('publishes asset.created as a persistent envelope and marks the row published', async () => {
    const asset = (await tenant.post<AssetDetail>('/assets', { name: 'Relay me' })).body;
    const found = await eventually(() => {
      const hit = received.find(
        (r) => r.event.event === 'asset.created' && r.event.data.id === asset.id,
      );
      return hit ? Promise.resolve(hit) : Promise.reject(new Error('not yet published'));
    });
    expect(found.event).toMatchObject({
      event: 'asset.created',
      workspace_id: tenant.workspace.id,
      data: { id: asset.id, name: 'Relay me' },
    });
    expect(found.event.id).toMatch(/^evt_/);
    expect(found.event.created_at).toMatch(/Z$/);
    expect(found.message.properties.deliveryMode).toBe(2);
    expect(found.message.properties.messageId).toBe(found.event.id);
    expect(found.message.fields.routingKey).toBe('asset.created');
    await eventually(async () => expect(await unpublished()).toBe(0));
  });

  it('loses nothing while the broker cuts the relay off mid-run', async () => {
    const pid = stack.register?.pid;
    expect(pid).toBeDefined();
    const ids: string[] = [];
    let cuts = 0;
    for (let i = 0; i < 20; i++) {
      const created = await tenant.post<AssetDetail>('/assets', { name: `Burst ${i}` });
      // Writes succeed whatever the broker is doing: they only touch Postgres.
      expect(created.status).toBe(201);
      ids.push(created.body.id);
      // The register's one connection carries its relay (and its RPC servers, which recover).
      if (i % 5 === 0) cuts += await cutConnections(`custodian-register (${hostname()}:${pid})`);
    }
    expect(cuts).toBeGreaterThan(0);
    await eventually(
      async () => {
        const seen = new Set(
          received.filter((r) => r.event.event === 'asset.created').map((r) => r.event.data.id),
        );
        expect(ids.filter((id) => !seen.has(id))).toEqual([]);
        expect(await unpublished()).toBe(0);
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
  }, 40_000);
});
