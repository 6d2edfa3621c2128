import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { Cleanup } from './cleanup';
import { sleep, until } from './commands';
import { FAULTS } from './faults';
import { formatRow, formatTable, lineFails, type LedgerLine } from './ledger';
import { SteadyLoad, WriteClient } from './load';
import { WebhookReceiver } from './receiver';
import { startHarness } from './stack';
import { Window, runWindow, type Context, type Timings } from './windows';

const USAGE = `usage: npm run faults [-- --short] [--only <text>[,<text>...]] [--json <file>] [--keep-logs]
  --short        the CI subset (no server restarts, on the machine's servers), under ~90 s;
                 also FAULTS_SHORT=1
  --only         only the faults whose name contains one of the texts (e.g. --only redis)
  --json <file>  also writes the ledger lines there, as JSON
  --keep-logs    keeps the apps' logs when the run passes too (a failed run always keeps them)`;

interface Options {
  short: boolean;
  only: string[];
  json: string | null;
  keepLogs: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    short: process.env.FAULTS_SHORT === '1' || process.env.FAULTS_SHORT === 'true',
    only: [],
    json: null,
    keepLogs: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--short') options.short = true;
    else if (arg === '--only' && argv[i + 1]) options.only = (argv[++i] ?? '').split(',');
    else if (arg === '--json' && argv[i + 1]) options.json = argv[++i] ?? null;
    else if (arg === '--keep-logs') options.keepLogs = true;
    else {
      console.error(`${arg === '--help' ? '' : `unknown argument ${arg}\n`}${USAGE}`);
      process.exit(2);
    }
  }
  return options;
}

/**
 * The full run waits out the worker's 30 s delivery lease (deliveries a killed worker held);
 * the short one gives the apps a 5 s lease instead, to stay within CI's budget.
 */
const TIMINGS: Record<'full' | 'short', Timings> = {
  full: { rate: 50, preMs: 3_000, postMs: 5_000, settleMs: 60_000 },
  short: { rate: 50, preMs: 2_000, postMs: 2_000, settleMs: 20_000 },
};
const SHORT_APP_ENV = { DELIVERY_LEASE_MS: '5000', DELIVERY_TIMEOUT_MS: '4000' };
/** How long a write keeps retrying (network errors, 503, 504) with its key. */
const RETRY_BUDGET_MS = 30_000;
/** Every fifth write of the steady load is a check-out with a due date (an overdue to come). */
const CHECKOUT_EVERY = 5;
/**
 * How far ahead a check-out is due: a few seconds, so that check-outs made before a fault fall
 * due while it strikes, and no longer than the load runs after a window's last check-out
 * (postMs), so that the settle does not wait for due dates.
 */
const DUE_IN_MS: Record<'full' | 'short', number> = { full: 4_000, short: 2_000 };

async function main(cleanup: Cleanup): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const faults = FAULTS.filter(
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
    },
    cleanup,
  );
  receiver.secret = harness.webhookSecret;
  const client = new WriteClient({
    gateways: () => harness.stack.gatewayUrls(),
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

  console.log(`\nFault ledger (run ${run}, ${((Date.now() - started) / 1000).toFixed(0)} s):\n`);
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
