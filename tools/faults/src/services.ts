import { connect } from 'amqplib';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import {
  freePort,
  isRoot,
  mustRun,
  portOpen,
  runCommand,
  until,
  type CommandOptions,
} from './commands';

/**
 * The ports of this machine's own Postgres, Redis, RabbitMQ (AMQP and its Erlang distribution)
 * and epmd. CI and other people use those servers while the tool runs: nothing here may ever
 * stop one, so every stop first checks that its port is none of these.
 */
const SYSTEM_PORTS = new Set([5432, 6379, 5672, 25672, 4369]);

function assertOwnPort(port: number, what: string): void {
  if (SYSTEM_PORTS.has(port)) {
    throw new Error(`refusing to stop ${what} on port ${port}: that is the machine's own server`);
  }
}

/** Where the servers the apps use are, and the ones the tool may stop (full run only). */
export interface Services {
  /** A Postgres server URL without a database. */
  postgresServer: string;
  redisUrl: string;
  rabbitmqUrl: string;
  own: { postgres: OwnPostgres; redis: OwnRedis; rabbitmq: OwnRabbitMq } | null;
}

/**
 * The machine's servers, for the short run: never stopped. Postgres is FAULTS_POSTGRES_URL,
 * else the server of TEST_DATABASE_URL (as the tests use), else the local one.
 */
export function systemServices(): Services {
  const testServer = process.env.TEST_DATABASE_URL
    ? serverOf(process.env.TEST_DATABASE_URL)
    : undefined;
  return {
    postgresServer:
      process.env.FAULTS_POSTGRES_URL ?? testServer ?? 'postgres://postgres@127.0.0.1:5432',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    rabbitmqUrl: process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    own: null,
  };
}

/** A Postgres URL without its database and options: the server. */
function serverOf(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '';
  url.search = '';
  return url.toString().replace(/\/$/, '');
}

/** A directory a system account (postgres, rabbitmq) owns, when this process is root. */
function ownedDir(dir: string, user: string | undefined): Promise<void> {
  mkdirSync(dir, { recursive: true });
  if (!user || !isRoot()) return Promise.resolve();
  return Promise.all([mustRun('id', ['-u', user]), mustRun('id', ['-g', user])]).then(
    ([uid, gid]) => chownSync(dir, Number(uid.trim()), Number(gid.trim())),
  );
}

/** The bin directory of the newest Postgres installed (FAULTS_PG_BIN overrides). */
function postgresBin(): string {
  if (process.env.FAULTS_PG_BIN) return process.env.FAULTS_PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(path.join(root, version, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) {
    throw new Error(
      `no initdb under ${root}/*/bin: set FAULTS_PG_BIN to the Postgres bin directory`,
    );
  }
  return path.join(root, versions[0], 'bin');
}

/**
 * A Postgres cluster of the run's own (initdb in the temp dir, trust auth, a free port, its
 * unix socket in the temp dir), stopped and started with pg_ctl. fsync is off: the faults
 * stop it cleanly (`-m fast` checkpoints) and the machine's disk is shared.
 */
export class OwnPostgres {
  private running = false;
  private readonly user = isRoot() ? 'postgres' : undefined;

  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly bin: string,
  ) {}

  get serverUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.port}`;
  }

  static async create(tempDir: string): Promise<OwnPostgres> {
    const dir = path.join(tempDir, 'postgres');
    const postgres = new OwnPostgres(dir, await freePort(), postgresBin());
    await ownedDir(dir, postgres.user);
    await mustRun(
      path.join(postgres.bin, 'initdb'),
      ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'],
      postgres.options(),
    );
    return postgres;
  }

  async start(): Promise<void> {
    await mustRun(
      path.join(this.bin, 'pg_ctl'),
      [
        '-D',
        path.join(this.dir, 'data'),
        '-l',
        path.join(this.dir, 'postgres.log'),
        '-w',
        '-t',
        '60',
        '-o',
        `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off ` +
          '-c max_connections=200',
        'start',
      ],
      this.options(),
    );
    this.running = true;
  }

  /** `fast`: clients are disconnected, the cluster checkpoints and stops (a clean restart). */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    assertOwnPort(this.port, 'Postgres');
    await mustRun(
      path.join(this.bin, 'pg_ctl'),
      ['-D', path.join(this.dir, 'data'), '-m', mode, '-w', '-t', '60', 'stop'],
      this.options(),
    );
    this.running = false;
  }

  async dispose(): Promise<void> {
    if (this.running) await this.stop('immediate');
  }

  private options(): CommandOptions {
    // pg_ctl's child must not inherit the tool's PG* variables (they name other servers).
    return { user: this.user, env: { PGPORT: String(this.port), PGHOST: this.dir } };
  }
}

/** A redis-server of the run's own, without persistence: a restart starts it empty. */
export class OwnRedis {
  private child: ChildProcess | null = null;

  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async create(tempDir: string): Promise<OwnRedis> {
    const dir = path.join(tempDir, 'redis');
    mkdirSync(dir, { recursive: true });
    return new OwnRedis(dir, await freePort());
  }

  async start(): Promise<void> {
    const log = openSync(path.join(this.dir, 'redis.log'), 'a');
    try {
      const child = spawn(
        process.env.REDIS_SERVER_BIN ?? 'redis-server',
        [
          '--port',
          String(this.port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          this.dir,
        ],
        { stdio: ['ignore', log, log], detached: true },
      );
      child.on('error', () => undefined);
      this.child = child;
    } finally {
      closeSync(log);
    }
    const child = this.child;
    if (
      !(await until(async () => child.exitCode !== null || (await portOpen(this.port)), 10_000))
    ) {
      throw new Error(`redis-server on port ${this.port} did not start: ${this.logTail()}`);
    }
    if (child.exitCode !== null) {
      throw new Error(`redis-server on port ${this.port} exited: ${this.logTail()}`);
    }
  }

  /** SIGTERM: redis-server shuts down (nothing saved) and its data is gone. */
  async stop(): Promise<void> {
    assertOwnPort(this.port, 'Redis');
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  dispose(): Promise<void> {
    return this.stop();
  }

  private logTail(): string {
    try {
      return readFileSync(path.join(this.dir, 'redis.log'), 'utf8').slice(-2_000);
    } catch {
      return '(no log)';
    }
  }
}

/** Where RabbitMQ's own scripts are: the packaged ones, not the /usr/sbin wrappers. */
function rabbitBin(script: string): string {
  const dir = process.env.FAULTS_RABBITMQ_BIN ?? '/usr/lib/rabbitmq/bin';
  const packaged = path.join(dir, script);
  return existsSync(packaged) ? packaged : script;
}

/**
 * A second RabbitMQ node of the run's own (`faults-<random>@localhost`): its own AMQP and
 * distribution ports, database, logs and pid file in the temp dir, no plugins, and its own
 * config and env files, so that nothing of /etc/rabbitmq (whose listener is the machine's
 * 5672) applies. Started with `rabbitmq-server -detached`, stopped with `rabbitmqctl -n
 * <node> stop`; a restart keeps its database (durable queues and persistent messages).
 */
export class OwnRabbitMq {
  private running = false;
  private readonly user = isRoot() ? 'rabbitmq' : undefined;
  /** epmd was not running before: the node started it, and it goes when the run ends. */
  private startedEpmd = false;

  private constructor(
    private readonly dir: string,
    readonly node: string,
    readonly port: number,
    private readonly distPort: number,
  ) {}

  get url(): string {
    return `amqp://guest:guest@127.0.0.1:${this.port}`;
  }

  static async create(tempDir: string): Promise<OwnRabbitMq> {
    const dir = path.join(tempDir, 'rabbitmq');
    const rabbit = new OwnRabbitMq(
      dir,
      `faults-${randomBytes(4).toString('hex')}@localhost`,
      await freePort(),
      await freePort(),
    );
    mkdirSync(path.join(dir, 'mnesia'), { recursive: true });
    mkdirSync(path.join(dir, 'log'), { recursive: true });
    writeFileSync(path.join(dir, 'enabled_plugins'), '');
    writeFileSync(
      path.join(dir, 'rabbitmq.conf'),
      `listeners.tcp.local = 127.0.0.1:${rabbit.port}\n`,
    );
    writeFileSync(
      path.join(dir, 'rabbitmq-env.conf'),
      'ERL_EPMD_ADDRESS=127.0.0.1\nexport ERL_FLAGS="-kernel inet_dist_use_interface {127,0,0,1}"\n',
    );
    if (rabbit.user) {
      await mustRun('chown', ['-R', `${rabbit.user}:${rabbit.user}`, dir]);
    }
    rabbit.startedEpmd = !(await portOpen(4369));
    return rabbit;
  }

  async start(): Promise<void> {
    await mustRun(rabbitBin('rabbitmq-server'), ['-detached'], this.options());
    this.running = true;
    const up = await until(() => this.acceptsAmqp(), 90_000, 250);
    if (!up) throw new Error(`RabbitMQ node ${this.node} did not accept AMQP within 90 s`);
  }

  /** Waits until the node's OS process is gone (rabbitmqctl stop with the pid file). */
  async stop(): Promise<void> {
    assertOwnPort(this.port, 'RabbitMQ');
    if (!this.node.startsWith('faults-')) throw new Error(`refusing to stop node ${this.node}`);
    await mustRun(
      rabbitBin('rabbitmqctl'),
      ['-n', this.node, 'stop', path.join(this.dir, 'pid')],
      this.options(),
    );
    this.running = false;
  }

  async dispose(): Promise<void> {
    if (this.running) {
      try {
        await this.stop();
      } catch (error) {
        // The node did not answer: its pid file names the process to end.
        const pid = Number(readFileSync(path.join(this.dir, 'pid'), 'utf8').trim());
        if (pid > 1) process.kill(pid, 'SIGKILL');
        console.error(`RabbitMQ node ${this.node} killed: ${(error as Error).message}`);
      }
    }
    if (this.startedEpmd) await runCommand('epmd', ['-kill'], { user: this.user });
  }

  private async acceptsAmqp(): Promise<boolean> {
    if (!(await portOpen(this.port))) return false;
    try {
      const connection = await connect(this.url);
      await connection.close();
      return true;
    } catch {
      return false;
    }
  }

  private options(): CommandOptions {
    const dir = this.dir;
    return {
      user: this.user,
      timeoutMs: 120_000,
      env: {
        RABBITMQ_NODENAME: this.node,
        RABBITMQ_NODE_PORT: String(this.port),
        RABBITMQ_DIST_PORT: String(this.distPort),
        RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
        RABBITMQ_LOG_BASE: path.join(dir, 'log'),
        RABBITMQ_PID_FILE: path.join(dir, 'pid'),
        RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
        RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq.conf'),
        RABBITMQ_CONF_ENV_FILE: path.join(dir, 'rabbitmq-env.conf'),
      },
    };
  }
}
