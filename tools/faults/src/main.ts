import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { Cleanup } from './cleanup';
import { sleep, until } from './commands';
import { faultsFor } from './faults';
import { formatRow, formatTable, lineFails, type LedgerLine } from './ledger';
import { SteadyLoad, WriteClient } from './load';
import { USAGE, UsageError, parseArgs } from './options';
import { WebhookReceiver } from './receiver';
import { startHarness } from './stack';
import { Window, runWindow, type Context, type Timings } from './windows';

/**
 * The full run waits out the worker's 30 s delivery lease (deliveries a killed worker held);
 * the short one gives the apps a 5 s lease instead, to stay within CI's budget.
 */
const TIMINGS: Record<'full' | 'short', Timings> = {
  full: { rate: 50, preMs: 3_000, postMs: 5_000, settleMs: 60_000, holdAnswersMs: 500 },
  // No answers held at the kill: the lease the duplicates wait for would lengthen CI's run.
  short: { rate: 50, preMs: 2_000, postMs: 2_000, settleMs: 20_000, holdAnswersMs: 0 },
};
const SHORT_APP_ENV = { DELIVERY_LEASE_MS: '5000', DELIVERY_TIMEOUT_MS: '4000' };
/** How long a write keeps retrying (network errors, 503, 504) with its key. */
const RETRY_BUDGET_MS = 30_000;
/** With replicas: a client connection is closed after this many requests (see WriteClient). */
const REQUESTS_PER_CONNECTION = 25;
/** Every fifth write of the steady load is a check-out with a due date (an overdue to come). */
const CHECKOUT_EVERY = 5;
/**
 * How far ahead a check-out is due: a few seconds, so that check-outs made before a fault fall
 * due while it strikes, and no longer than the load runs after a window's last check-out
 * (postMs), so that the settle does not wait for due dates.
 */
const DUE_IN_MS: Record<'full' | 'short', number> = { full: 4_000, short: 2_000 };

async function main(cleanup: Cleanup): Promise<number> {
  let options;
  try {
    options = parseArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message ? `${error.message}\n${USAGE}` : USAGE);
    return 2;
  }
  const faults = faultsFor(options.replicas).filter(
    (fault) =>
      (!options.short || fault.short) &&
      (options.only.length === 0 || options.only.some((text) => fault.name.includes(text))),
  );
  if (faults.length === 0) {
    console.error(`no fault matches --only ${options.only.join(',')}`);
    return 2;
  }
  const run = randomBytes(3).toString('hex');
  const started = Date.now();
  const receiver = new WebhookReceiver();
  await receiver.start();
  cleanup.add('receiver', () => receiver.stop());
  const harness = await startHarness(
    {
      run,
      ownServices: !options.short,
      appEnv: options.short ? SHORT_APP_ENV : {},
      webhookUrl: receiver.url,
      replicas: options.replicas,
    },
    cleanup,
  );
  receiver.secret = harness.webhookSecret;
  const client = new WriteClient({
    // With replicas, the proxy's URL alone: the balancer, not the client, picks the gateway.
    gateways: harness.apiUrls,
    ...(harness.proxy ? { requestsPerConnection: REQUESTS_PER_CONNECTION } : {}),
    apiKey: harness.apiKey,
    retryBudgetMs: RETRY_BUDGET_MS,
    run,
  });
  cleanup.add('write client', () => client.close());
  const mode = options.short ? 'short' : 'full';
  const personId = await client.person('Fault ledger borrower');
  const ctx: Context = {
    ...harness,
    client,
    load: new SteadyLoad(client, { personId, dueInMs: DUE_IN_MS[mode], every: CHECKOUT_EVERY }),
    receiver,
    timings: TIMINGS[mode],
  };
  await warmUp(ctx);
  console.log(
    `run ${run}: stack up in ${((Date.now() - started) / 1000).toFixed(1)} s; app logs in ${harness.logDir}\n` +
      `${options.replicas === 1 ? 'one of each app' : `${options.replicas} replicas of each app, the gateways behind ${harness.proxy?.url ?? '?'}`}; ` +
      `${faults.length} faults, ${ctx.timings.rate} writes/s, each write with an Idempotency-Key ` +
      `and retried on no answer, 503 and 504 for up to ${RETRY_BUDGET_MS / 1000} s; ` +
      `every ${CHECKOUT_EVERY}th a check-out due ${DUE_IN_MS[mode] / 1000} s later\n`,
  );

  const lines: LedgerLine[] = [];
  console.log(formatTable([]));
  for (const [index, fault] of faults.entries()) {
    const line = await runWindow(ctx, fault, new Window(`w${index + 1}`));
    lines.push(line);
    console.log(formatRow(line));
  }

  console.log(
    `\nFault ledger (run ${run}, ${options.replicas === 1 ? '1 replica' : `${options.replicas} replicas`}, ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s):\n`,
  );
  console.log(formatTable(lines));
  if (receiver.badSignatures > 0) {
    console.log(`\n${receiver.badSignatures} deliveries had a signature that did not verify`);
  }
  if (options.json) writeFileSync(options.json, `${JSON.stringify(lines, null, 2)}\n`);
  const failed = lines.filter(lineFails);
  if (failed.length > 0 || receiver.badSignatures > 0) {
    console.log(
      `\nFAILED: ${failed.map((line) => line.fault).join('; ') || 'signatures'} ` +
        `(missing events, an overdue missing or fired twice, a duplicate delivery no worker kill ` +
        `explains, writes applied twice or lost, an app that exited, or a failed check). ` +
        `App logs kept in ${harness.logDir}`,
    );
    return 1;
  }
  if (options.keepLogs) console.log(`\nApp logs kept in ${harness.logDir}`);
  else rmSync(harness.logDir, { recursive: true, force: true });
  console.log(
    '\nOK: no event missing, every overdue fired once, no write applied twice, every duplicate ' +
      'delivery explained by a worker kill, no app exited on its own.',
  );
  return 0;
}

/** A few writes through the whole path before the first fault: every stage is up. */
async function warmUp(ctx: Context): Promise<void> {
  const writes = await Promise.all(Array.from({ length: 5 }, () => ctx.client.write('warm')));
  const ids = writes.flatMap((write) => (write.assetId ? [write.assetId] : []));
  if (ids.length !== writes.length) {
    throw new Error(
      `warm-up writes failed: ${JSON.stringify(writes.map((w) => w.attempts.at(-1)))}`,
    );
  }
  const delivered = await until(() => {
    const received = ctx.receiver.createdBySubject();
    return ids.every((id) => received.has(id));
  }, 30_000);
  if (!delivered) throw new Error('the warm-up writes’ events did not reach the receiver in 30 s');
}

const cleanup = new Cleanup();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) {
      console.error('second signal: exiting without finishing the cleanup');
      process.exit(130);
    }
    interrupted = true;
    console.error(`\n${signal}: stopping everything the run started...`);
    void cleanup.runAll().then(() => process.exit(130));
  });
}

void main(cleanup)
  .catch((error: unknown) => {
    // Interrupted, the run fails on what the cleanup has stopped under it: not worth a trace.
    if (!interrupted) console.error(error);
    return 1;
  })
  .then(async (code) => {
    await cleanup.runAll();
    // Give a signal handler's cleanup the last word on the exit code.
    if (!interrupted) process.exit(code);
    await sleep(60_000);
  });
