import { openConnection } from '@custodian/messaging';
import { APP_NAMES, type AppName } from './apps';
import { sleep, until } from './commands';
import { burst, type Attempt } from './load';
import type { Services } from './services';
import { recovered, windowWrites, type Context, type Fault, type Window } from './windows';

/** How long a crashed app stays down before it is started again (an orchestrator's delay). */
const RESTART_DELAY_MS = 1_000;
const POSTGRES_OUTAGE_MS = 10_000;
const REDIS_OUTAGE_MS = 2_000;
const RECEIVER_OUTAGE_MS = 2_000;
const BACKLOG_WRITES = 1_000;
const BACKLOG_LANES = 25;

/** Messages ready in the worker's events queue. */
async function queuedEvents(ctx: Context): Promise<number> {
  const connection = await openConnection(ctx.env.RABBITMQ_URL ?? '', 'custodian-faults-probe');
  try {
    const channel = await connection.createChannel();
    return (await channel.checkQueue(ctx.env.EVENTS_QUEUE ?? '')).messageCount;
  } finally {
    await connection.close();
  }
}

function own(services: Services): NonNullable<Services['own']> {
  if (!services.own) throw new Error('this fault stops a server: it needs the run’s own servers');
  return services.own;
}

/**
 * Runs `kill` (which kills a worker) with the receiver holding its answers for
 * `holdAnswersMs` before and until the kill: the worker dies with attempts in flight that the
 * receiver has accepted (see Timings).
 */
async function killWithAnswersHeld(
  ctx: Context,
  window: Window,
  kill: () => Promise<void>,
): Promise<void> {
  const holdMs = ctx.timings.holdAnswersMs;
  if (holdMs === 0) return kill();
  const heldBefore = ctx.receiver.held;
  ctx.receiver.holdMs = holdMs;
  try {
    await sleep(holdMs);
    await kill();
  } finally {
    ctx.receiver.holdMs = 0;
  }
  window.notes.push(
    `receiver held ${ctx.receiver.held - heldBefore} answers ${holdMs} ms up to the worker kill`,
  );
}

/** Kills the app's first replica (with replicas, the others carry on) and starts it again. */
function killAndRestart(app: AppName): Fault {
  return {
    name: `${app} SIGKILL, restarted`,
    short: app !== 'gateway',
    async inject(ctx, window) {
      const process = ctx.stack.get(app, 1);
      const kill = () => process.stop('SIGKILL');
      await (app === 'webhook-worker' ? killWithAnswersHeld(ctx, window, kill) : kill());
      window.mark();
      await sleep(RESTART_DELAY_MS);
      await process.start();
      window.notes.push(`down ${((Date.now() - window.faultAt) / 1000).toFixed(1)} s`);
    },
  };
}

/** The highest X-Quota-Used among answers that came back before `at`. */
function quotaBefore(attempts: Attempt[], at: number): number | null {
  const values = attempts
    .filter((attempt) => attempt.endedAt <= at && attempt.quotaUsed !== undefined)
    .map((attempt) => attempt.quotaUsed ?? 0);
  return values.length > 0 ? Math.max(...values) : null;
}

const FAULTS: Fault[] = [
  killAndRestart('webhook-worker'),
  killAndRestart('register'),
  {
    ...killAndRestart('gateway'),
    name: 'gateway SIGKILL, restarted on its port',
  },
  {
    name: 'RabbitMQ stopped and started',
    short: false,
    async inject(ctx, window) {
      const { rabbitmq } = own(ctx.services);
      await rabbitmq.stop();
      window.mark();
      await rabbitmq.start();
      window.notes.push(`broker down ${((Date.now() - window.faultAt) / 1000).toFixed(1)} s`);
    },
  },
  {
    name: 'Postgres restart (stop -m fast, start)',
    short: false,
    async inject(ctx, window) {
      const { postgres } = own(ctx.services);
      await postgres.stop('fast');
      window.mark();
      await postgres.start();
      window.notes.push(`Postgres down ${((Date.now() - window.faultAt) / 1000).toFixed(1)} s`);
    },
  },
  {
    name: 'Postgres down 10 s',
    short: false,
    async inject(ctx, window) {
      const { postgres } = own(ctx.services);
      await postgres.stop('fast');
      window.mark();
      await sleep(POSTGRES_OUTAGE_MS);
      await postgres.start();
      window.notes.push(`Postgres down ${((Date.now() - window.faultAt) / 1000).toFixed(1)} s`);
    },
  },
  {
    name: 'Redis shutdown, restarted empty',
    short: false,
    async inject(ctx, window) {
      const { redis } = own(ctx.services);
      const attempts = () => windowWrites(ctx.client, window).flatMap((write) => write.attempts);
      await redis.stop();
      window.mark();
      const before = quotaBefore(attempts(), Date.now());
      await sleep(REDIS_OUTAGE_MS);
      await redis.start();
      const upAt = Date.now();
      // The answers to requests sent once Redis is back and the gateway has reconnected.
      const after = () =>
        attempts()
          .filter((attempt) => attempt.startedAt >= upAt && attempt.quotaUsed !== undefined)
          .map((attempt) => attempt.quotaUsed ?? 0);
      await until(() => after().length >= 20, 15_000);
      const values = after();
      if (before === null) {
        window.failures.push('no X-Quota-Used before the shutdown');
      } else if (values.length === 0) {
        window.failures.push('no X-Quota-Used within 15 s of Redis being back');
      } else {
        const lowest = Math.min(...values);
        window.notes.push(
          `X-Quota-Used ${before} before the shutdown, ${lowest} to ${Math.max(...values)} after`,
        );
        if (lowest < before) {
          window.failures.push(`X-Quota-Used went back from ${before} to ${lowest}`);
        }
      }
    },
  },
  {
    name: 'receiver answering 503 for 2 s',
    short: true,
    receiverFails: true,
    async inject(ctx, window) {
      const refusedBefore = ctx.receiver.refused;
      ctx.receiver.setFailing(true);
      window.mark();
      await sleep(RECEIVER_OUTAGE_MS);
      ctx.receiver.setFailing(false);
      window.notes.push(`${ctx.receiver.refused - refusedBefore} attempts answered 503`);
    },
  },
  {
    name: '1,000-event backlog across a broker restart',
    short: false,
    async drive(ctx, window) {
      const { rabbitmq } = own(ctx.services);
      // The worker drains events faster than one workspace's writes can make them: with it
      // stopped (SIGTERM, as in a deploy; every replica, or another would drain them) they
      // pile up in its durable queue, so the restart strikes a real backlog; the workers then
      // deliver it once they are back.
      const workers = ctx.stack.replicas('webhook-worker');
      await Promise.all(workers.map((worker) => worker.stop('SIGTERM')));
      let restart = null as Promise<void> | null;
      try {
        await burst(ctx.client, window.id, BACKLOG_WRITES, BACKLOG_LANES, (acked) => {
          if (acked !== BACKLOG_WRITES / 2 || restart) return;
          restart = queuedEvents(ctx).then(async (queued) => {
            window.notes.push(`${queued} events queued in RabbitMQ when it stopped`);
            await rabbitmq.stop();
            window.mark();
            await rabbitmq.start();
          });
        });
        await restart;
        window.notes.push(`${await queuedEvents(ctx)} queued when the worker came back`);
      } finally {
        await Promise.all(workers.map((worker) => worker.start()));
      }
      if (window.faultAt === 0) window.failures.push('the broker was never restarted');
    },
  },
];

/**
 * The one-replica run's last fault: a second replica of each app joins, then the first of each
 * is killed at once. Runs last: the stack stays on the surviving replicas.
 */
const SECOND_REPLICAS: Fault = {
  name: 'two replicas of each app, one of each SIGKILLed',
  short: false,
  async drive(ctx, window) {
    await Promise.all([
      ctx.stack.add('gateway'),
      ctx.stack.add('register'),
      ctx.stack.add('webhook-worker'),
    ]);
    ctx.load.start(window.id, ctx.timings.rate);
    try {
      await sleep(ctx.timings.preMs);
      await killWithAnswersHeld(ctx, window, async () => {
        await Promise.all(
          (['gateway', 'register', 'webhook-worker'] as const).map((app) =>
            ctx.stack.get(app, 1).stop('SIGKILL'),
          ),
        );
      });
      window.mark();
      await until(() => recovered(ctx.client, window), 60_000);
      ctx.load.endCheckouts();
      await sleep(ctx.timings.postMs);
    } finally {
      await ctx.load.stop();
    }
    const served = new Map<string, number>();
    for (const write of windowWrites(ctx.client, window)) {
      const last = write.attempts.at(-1);
      if (last) served.set(last.gateway, (served.get(last.gateway) ?? 0) + 1);
    }
    window.notes.push(
      `final answers by gateway: ${[...served].map(([url, n]) => `${new URL(url).port}: ${n}`).join(', ')}`,
    );
  },
};

/**
 * The replicas run's last fault: one replica of each app (the first) killed at once, the
 * others carrying the load alone for postMs once a write sent after the kill is acknowledged;
 * then the killed ones start again (as an orchestrator would), and the load runs on for
 * postMs over all of them.
 */
const ONE_OF_EACH_KILLED: Fault = {
  name: 'one replica of each app SIGKILLed at once, restarted',
  short: false,
  async drive(ctx, window) {
    ctx.load.start(window.id, ctx.timings.rate);
    try {
      await sleep(ctx.timings.preMs);
      const killed = APP_NAMES.map((app) => ctx.stack.get(app, 1));
      await killWithAnswersHeld(ctx, window, async () => {
        await Promise.all(killed.map((process) => process.stop('SIGKILL')));
      });
      window.mark();
      await until(() => recovered(ctx.client, window), 60_000);
      await sleep(ctx.timings.postMs);
      await Promise.all(killed.map((process) => process.start()));
      window.notes.push(
        `killed replicas down ${((Date.now() - window.faultAt) / 1000).toFixed(1)} s`,
      );
      ctx.load.endCheckouts();
      await sleep(ctx.timings.postMs);
    } finally {
      await ctx.load.stop();
    }
  },
};

/**
 * The faults of a run, in order: with replicas, every fault strikes the replicated stack (the
 * app kills kill replica 1 of the app), and the last kills one replica of each app at once
 * instead of adding second replicas.
 */
export function faultsFor(replicas: number): Fault[] {
  return [...FAULTS, replicas > 1 ? ONE_OF_EACH_KILLED : SECOND_REPLICAS];
}
