/** The tool's command line (main.ts): what it takes, and the run it asks for. */

export const USAGE = `usage: npm run faults [-- --short] [--replicas 1|2] [--only <text>[,<text>...]] [--json <file>] [--keep-logs]
  --short         the CI subset (no server restarts, on the machine's servers), under ~90 s;
                  also FAULTS_SHORT=1
  --replicas <n>  1 (default): one of each app. 2: two gateways (behind a local round-robin
                  proxy the client talks to), two registers and two workers from the start;
                  the app kills kill replica 1, and the last fault kills one of each at once
  --only          only the faults whose name contains one of the texts (e.g. --only redis)
  --json <file>   also writes the ledger lines there, as JSON
  --keep-logs     keeps the apps' logs when the run passes too (a failed run always keeps them)`;

export interface Options {
  short: boolean;
  /** Replicas of each app from the start: 1 or 2. */
  replicas: number;
  only: string[];
  json: string | null;
  keepLogs: boolean;
}

/** A command line the tool does not take; the message says what was wrong ('' for --help). */
export class UsageError extends Error {}

/**
 * What `--replicas` takes: one of each app, or two of each (issue 31, item 10). More would
 * run, but nothing in the faults would use a third, and the 2-core machine has no room for it.
 */
const REPLICA_COUNTS = ['1', '2'];

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = {}): Options {
  const options: Options = {
    short: env.FAULTS_SHORT === '1' || env.FAULTS_SHORT === 'true',
    replicas: 1,
    only: [],
    json: null,
    keepLogs: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--short') options.short = true;
    else if (arg === '--replicas') {
      const value = argv[++i];
      if (value === undefined || !REPLICA_COUNTS.includes(value)) {
        throw new UsageError(`--replicas takes 1 or 2, not ${value ?? 'nothing'}`);
      }
      options.replicas = Number(value);
    } else if (arg === '--only' && argv[i + 1]) options.only = (argv[++i] ?? '').split(',');
    else if (arg === '--json' && argv[i + 1]) options.json = argv[++i] ?? null;
    else if (arg === '--keep-logs') options.keepLogs = true;
    else if (arg === '--help') throw new UsageError('');
    else throw new UsageError(`unknown argument ${arg}`);
  }
  return options;
}
