import { PLAN_FACTS_ROUTING_KEY, type PublishedEvent } from '@custodian/contracts';
import type { AmqpConnection, ChannelSpec, WorkspacePlans } from '@custodian/messaging';
import type { Channel, ConsumeMessage } from 'amqplib';
import { loadWorkerConfig } from '../config/worker-config';
import { subscriptionKey, type FanOut, type FanOutItem } from '../delivery/fan-out';
import type { EventFeedWriter } from '../feed/event-feed.writer';
import { EventConsumer, isUnavailable } from './event-consumer';

/** Resolves on the next turn of the event loop, after setImmediate callbacks. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

function event(id: string, workspace = 'wsp_1', key = 'asset.created'): PublishedEvent {
  return {
    id,
    event: key as PublishedEvent['event'],
    created_at: '2025-01-01T00:00:00.000Z',
    data: { id: 'ast_1' },
    workspace_id: workspace,
  };
}

let tag = 0;
function message(body: unknown, routingKey = 'asset.created'): ConsumeMessage {
  return {
    content: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    fields: { deliveryTag: ++tag, routingKey },
    properties: {},
  } as unknown as ConsumeMessage;
}

/** A channel that hands the consumer's callback to the test and records acks and nacks. */
class FakeChannel {
  deliver!: (message: ConsumeMessage | null) => void;
  readonly acked: ConsumeMessage[] = [];
  readonly nacked: Array<{ message: ConsumeMessage; requeue?: boolean }> = [];
  assertExchange = jest.fn().mockResolvedValue({});
  assertQueue = jest.fn().mockResolvedValue({});
  bindQueue = jest.fn().mockResolvedValue({});
  prefetch = jest.fn().mockResolvedValue({});
  cancel = jest.fn().mockResolvedValue({});
  consume = jest.fn((_queue: string, onMessage: (message: ConsumeMessage | null) => void) => {
    this.deliver = onMessage;
    return Promise.resolve({ consumerTag: 'ctag' });
  });
  ack(message: ConsumeMessage): void {
    this.acked.push(message);
  }
  nack(message: ConsumeMessage, _allUpTo?: boolean, requeue?: boolean): void {
    this.nacked.push({ message, requeue });
  }
}

/** FanOut with the database replaced: subscribers by workspace, stores recorded. */
class FakeFanOut {
  readonly subscriberQueries: string[][] = [];
  readonly stored: FanOutItem[][] = [];
  /** Makes the next stores fail (Postgres down) while set. */
  failing: Error | null = null;
  /** A store in progress resolves when the test says so. */
  hold: Promise<void> | null = null;
  /** An event id Postgres refuses for its data (SQLSTATE 22021), whatever it is stored with. */
  poison: string | null = null;
  /**
   * A workspace whose events fail any store they are part of, for no fault of Postgres (as a
   * fan-out too big for one string did: V8's RangeError).
   */
  heavy: string | null = null;

  constructor(private readonly endpoints: Record<string, string[]>) {}

  subscribersOf(events: Array<{ workspace_id: string; event: string }>) {
    this.subscriberQueries.push(events.map((e) => e.workspace_id));
    const found = new Map<string, string[]>();
    for (const { workspace_id, event: key } of events) {
      const ids = this.endpoints[workspace_id];
      if (ids) found.set(subscriptionKey(workspace_id, key), ids);
    }
    return Promise.resolve(found);
  }

  async storeMany(items: FanOutItem[]): Promise<number> {
    if (this.hold) await this.hold;
    if (this.failing) throw this.failing;
    if (items.some((item) => item.event.id === this.poison)) {
      throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
        code: '22021',
      });
    }
    if (items.some((item) => item.event.workspace_id === this.heavy)) {
      throw new RangeError('Invalid string length');
    }
    this.stored.push(items);
    return items.length;
  }
}

/**
 * The worker's copy of plan facts with the database replaced: API access by workspace; a
 * workspace not named has no facts in the copy.
 */
function consumerWith(
  fanOut: FakeFanOut,
  apiAccess: Record<string, boolean> = { wsp_1: true },
): {
  consumer: EventConsumer;
  channel: FakeChannel;
  plans: { many: jest.Mock; store: jest.Mock };
} {
  const config = loadWorkerConfig({ EVENTS_PREFETCH: '50' });
  const plans = {
    // Facts stored through the events queue change what the next read says.
    store: jest.fn((facts: Array<{ workspace_id: string; api_access: boolean }>) => {
      for (const one of facts) apiAccess[one.workspace_id] = one.api_access;
      return Promise.resolve();
    }),
    many: jest.fn((ids: string[]) =>
      Promise.resolve(
        new Map(
          ids
            .filter((id) => apiAccess[id] !== undefined)
            .map((id) => [id, { workspace_id: id, api_access: apiAccess[id] }]),
        ),
      ),
    ),
  };
  const channel = new FakeChannel();
  // The app's connection, reduced to what a consumer asks of it: a channel, set up at once.
  const connection = {
    addChannel: async (spec: ChannelSpec) => {
      await spec.setup(channel as unknown as Channel);
      return { spec, current: channel };
    },
    removeChannel: () => Promise.resolve(),
  };
  // The feed's writer with the database replaced: it takes every batch, and stores nothing.
  const feed = { append: jest.fn((events: PublishedEvent[]) => Promise.resolve(events.length)) };
  const consumer = new EventConsumer(
    config,
    fanOut as unknown as FanOut,
    feed as unknown as EventFeedWriter,
    plans as unknown as WorkspacePlans,
    connection as unknown as AmqpConnection,
  );
  return { consumer, channel, plans };
}

async function started(consumer: EventConsumer, channel: FakeChannel): Promise<void> {
  await consumer.onApplicationBootstrap();
  expect(channel.consume).toHaveBeenCalledTimes(1);
}

describe('EventConsumer: batched fan-out, ack after commit', () => {
  it('stores what arrived together with one subscribers query and one insert, then acks each', async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a', 'whe_b'] });
    const { consumer, channel, plans } = consumerWith(fanOut);
    await started(consumer, channel);

    const messages = [message(event('evt_1')), message(event('evt_2')), message(event('evt_3'))];
    let release!: () => void;
    fanOut.hold = new Promise((resolve) => (release = resolve));
    for (const m of messages) channel.deliver(m);
    await settle();

    // Not committed yet: nothing acked.
    expect(fanOut.subscriberQueries).toEqual([['wsp_1', 'wsp_1', 'wsp_1']]);
    expect(channel.acked).toEqual([]);
    release();
    await settle();

    expect(fanOut.stored).toHaveLength(1);
    expect(fanOut.stored[0]!.map((item) => [item.event.id, item.endpointIds])).toEqual([
      ['evt_1', ['whe_a', 'whe_b']],
      ['evt_2', ['whe_a', 'whe_b']],
      ['evt_3', ['whe_a', 'whe_b']],
    ]);
    expect(plans.many.mock.calls).toEqual([[['wsp_1']]]);
    expect(channel.acked).toEqual(messages);
    expect(channel.nacked).toEqual([]);
  });

  it('takes what arrives while a batch is being stored into the next batch', async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a'] });
    const { consumer, channel } = consumerWith(fanOut);
    await started(consumer, channel);
    let release!: () => void;
    fanOut.hold = new Promise((resolve) => (release = resolve));
    channel.deliver(message(event('evt_1')));
    await settle();
    channel.deliver(message(event('evt_2')));
    channel.deliver(message(event('evt_3')));
    await settle();
    fanOut.hold = null;
    release();
    await settle();
    expect(fanOut.stored.map((batch) => batch.map((item) => item.event.id))).toEqual([
      ['evt_1'],
      ['evt_2', 'evt_3'],
    ]);
    expect(channel.acked).toHaveLength(3);
  });

  it('stores a message that arrives twice in one batch once, and acks both', async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a'] });
    const { consumer, channel } = consumerWith(fanOut);
    await started(consumer, channel);
    const twice = [message(event('evt_dup')), message(event('evt_dup'))];
    for (const m of twice) channel.deliver(m);
    await settle();
    expect(fanOut.stored).toHaveLength(1);
    expect(fanOut.stored[0]!.map((item) => item.event.id)).toEqual(['evt_dup']);
    expect(channel.acked).toEqual(twice);
  });

  it('stores nothing for a workspace whose plan has no webhooks, and acks', async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a'], wsp_free: ['whe_f'] });
    const { consumer, channel } = consumerWith(fanOut, { wsp_1: true, wsp_free: false });
    await started(consumer, channel);
    const messages = [message(event('evt_free', 'wsp_free')), message(event('evt_ok', 'wsp_1'))];
    for (const m of messages) channel.deliver(m);
    await settle();
    expect(fanOut.stored.flat().map((item) => item.event.id)).toEqual(['evt_ok']);
    expect(channel.acked).toEqual(messages);
  });

  it('delivers for a workspace the copy has no plan facts of yet (its endpoints were made on Pro)', async () => {
    const fanOut = new FakeFanOut({ wsp_new: ['whe_n'] });
    const { consumer, channel } = consumerWith(fanOut, {});
    await started(consumer, channel);
    channel.deliver(message(event('evt_1', 'wsp_new')));
    await settle();
    expect(fanOut.stored.flat().map((item) => item.event.id)).toEqual(['evt_1']);
  });

  it('stores the plan facts the queue also gets before the events after them, and fans none out', async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a'] });
    const { consumer, channel, plans } = consumerWith(fanOut, { wsp_1: true });
    await started(consumer, channel);
    const downgrade = {
      workspace_id: 'wsp_1',
      plan: 'free',
      api_access: false,
      limits: { ratePerMinute: null, monthlyQuota: null, assets: 100, people: 50, seats: 3 },
      as_of: '2026-01-01T00:00:00.000Z',
    };
    // As the gateway's outbox publishes a downgrade: its facts, then its plan.changed.
    const facts = message({ id: 'evt_facts', data: downgrade }, PLAN_FACTS_ROUTING_KEY);
    const changed = message(event('evt_changed', 'wsp_1', 'plan.changed'), 'plan.changed');
    channel.deliver(facts);
    channel.deliver(changed);
    await settle();
    expect(plans.store.mock.calls).toEqual([[[downgrade]]]);
    expect(fanOut.stored.flat()).toEqual([]);
    expect(channel.acked).toEqual([facts, changed]);
  });

  it('dead-letters plan facts it cannot read, and acks other internal keys untouched', async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a'] });
    const { consumer, channel, plans } = consumerWith(fanOut);
    await started(consumer, channel);
    const bad = message({ id: 'evt_bad', data: { workspace_id: 'wsp_1' } }, PLAN_FACTS_ROUTING_KEY);
    const other = message({ id: 'evt_other' }, 'internal.something.else');
    channel.deliver(bad);
    channel.deliver(other);
    await settle();
    expect(channel.nacked).toEqual([{ message: bad, requeue: false }]);
    expect(channel.acked).toEqual([other]);
    expect(plans.store).not.toHaveBeenCalled();
    expect(fanOut.subscriberQueries).toEqual([]);
  });

  it('reads no plan facts and stores nothing when no endpoint subscribes', async () => {
    const fanOut = new FakeFanOut({});
    const { consumer, channel, plans } = consumerWith(fanOut);
    await started(consumer, channel);
    const m = message(event('evt_1'));
    channel.deliver(m);
    await settle();
    expect(plans.many).not.toHaveBeenCalled();
    expect(fanOut.stored).toEqual([]);
    expect(channel.acked).toEqual([m]);
  });

  it('keeps the messages while Postgres is down and acks them once stored', async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a'] });
    const { consumer, channel } = consumerWith(fanOut);
    await started(consumer, channel);
    fanOut.failing = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    const messages = [message(event('evt_1')), message(event('evt_2'))];
    for (const m of messages) channel.deliver(m);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Neither acked nor nacked (a requeue would count towards the delivery limit).
    expect(channel.acked).toEqual([]);
    expect(channel.nacked).toEqual([]);
    fanOut.failing = null;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(fanOut.stored.flat().map((item) => item.event.id)).toEqual(['evt_1', 'evt_2']);
    expect(channel.acked).toEqual(messages);
  });

  it('leaves unstored messages unacked for the broker when it stops while Postgres is down', async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a'] });
    const { consumer, channel } = consumerWith(fanOut);
    await started(consumer, channel);
    fanOut.failing = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    channel.deliver(message(event('evt_1')));
    await settle();
    await consumer.beforeApplicationShutdown();
    expect(channel.acked).toEqual([]);
    expect(channel.nacked).toEqual([]);
  });

  it('dead-letters only the message Postgres refuses for its data, and stores the rest of its batch', async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a'] });
    const { consumer, channel } = consumerWith(fanOut);
    await started(consumer, channel);
    fanOut.poison = 'evt_bad';
    const messages = [message(event('evt_1')), message(event('evt_bad')), message(event('evt_2'))];
    for (const m of messages) channel.deliver(m);
    await settle();
    expect(fanOut.stored.flat().map((item) => item.event.id)).toEqual(['evt_1', 'evt_2']);
    expect(channel.acked).toEqual([messages[0], messages[2]]);
    expect(channel.nacked).toEqual([{ message: messages[1], requeue: false }]);
  });

  it('dead-letters a malformed message at once', async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a'] });
    const { consumer, channel } = consumerWith(fanOut);
    await started(consumer, channel);
    const bad = [message('not json'), message({ id: 'evt_1' })];
    for (const m of bad) channel.deliver(m);
    await settle();
    expect(channel.nacked).toEqual(bad.map((m) => ({ message: m, requeue: false })));
    expect(fanOut.subscriberQueries).toEqual([]);
  });

  it('dead-letters a message whose envelope breaks the contract, and takes one that keeps it', async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a'] });
    const { consumer, channel } = consumerWith(fanOut);
    await started(consumer, channel);
    const good = event('evt_ok');
    const bad = [
      message({ ...good, event: 'asset.exploded' }),
      message({ ...good, id: 'dlv_1' }),
      message({ ...good, created_at: '2025-01-01 00:00' }),
      message({ ...good, data: 'asset' }),
      message({ ...good, workspace_id: 7 }),
      message(`{"__proto__":{},${JSON.stringify(good).slice(1)}`),
      message([good]),
    ];
    for (const m of bad) channel.deliver(m);
    const ok = message(good);
    channel.deliver(ok);
    await settle();
    expect(channel.nacked).toEqual(bad.map((m) => ({ message: m, requeue: false })));
    expect(channel.acked).toEqual([ok]);
    expect(fanOut.stored.flat().map((item) => item.event.id)).toEqual(['evt_ok']);
  });

  it("stores and acks the other workspaces' events when one workspace's fail the batch, and returns only that one's to the queue", async () => {
    const fanOut = new FakeFanOut({ wsp_1: ['whe_a'], wsp_2: ['whe_b'], wsp_heavy: ['whe_h'] });
    const { consumer, channel } = consumerWith(fanOut);
    await started(consumer, channel);
    fanOut.heavy = 'wsp_heavy';
    const messages = [
      message(event('evt_1', 'wsp_1')),
      message(event('evt_h1', 'wsp_heavy')),
      message(event('evt_2', 'wsp_2')),
      message(event('evt_h2', 'wsp_heavy')),
    ];
    for (const m of messages) channel.deliver(m);
    await settle();
    // Before, the batch was tried again as a whole, forever: nothing acked, nothing delivered.
    expect(fanOut.stored.flat().map((item) => item.event.id)).toEqual(['evt_1', 'evt_2']);
    expect(channel.acked).toEqual([messages[0], messages[2]]);
    // Back to the queue (its delivery limit dead-letters them if they never store), not
    // dead-lettered at once: the failure may pass.
    expect(channel.nacked).toEqual([
      { message: messages[1], requeue: true },
      { message: messages[3], requeue: true },
    ]);

    // The next batch is not held up by them.
    fanOut.heavy = null;
    const later = message(event('evt_3', 'wsp_1'));
    channel.deliver(later);
    await settle();
    expect(channel.acked).toContain(later);
  });

  it('tells Postgres unreachable (kept and tried again) from a failure of the batch itself', () => {
    const unavailable = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
    ];
    const ownFault = [
      new RangeError('Invalid string length'),
      Object.assign(new Error('invalid byte sequence'), { code: '22021' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('out of memory'), { code: '53200' }),
      Object.assign(new Error('program limit exceeded'), { code: '54000' }),
      null,
    ];
    expect(unavailable.map(isUnavailable)).toEqual(unavailable.map(() => true));
    expect(ownFault.map(isUnavailable)).toEqual(ownFault.map(() => false));
  });
});
