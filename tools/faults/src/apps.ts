import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, sleep } from './commands';

export const REPO_ROOT = path.resolve(__dirname, '../../../..');
const DIST_ROOT = process.env.CUSTODIAN_DIST ?? path.join(REPO_ROOT, 'dist');
/** Maps the compiled `@custodian/*` imports onto dist/, as every production start does. */
const REGISTER_PATHS = path.join(REPO_ROOT, 'tools/runtime/register-paths.js');
/**
 * Ends an app whose parent is gone (the tool killed with SIGKILL), over the IPC channel: the
 * end-to-end stacks' guard, plain JS, loaded by path.
 */
const EXIT_WITH_PARENT = path.join(REPO_ROOT, 'libs/testing/src/exit-with-parent.js');

export type AppName = 'gateway' | 'register' | 'webhook-worker';
export const APP_NAMES: readonly AppName[] = ['gateway', 'register', 'webhook-worker'];

/** The gateway's port is its API's; the others only serve /health on theirs. */
const PORT_VARIABLE: Record<AppName, string> = {
  gateway: 'PORT',
  register: 'HEALTH_PORT',
  'webhook-worker': 'HEALTH_PORT',
};

export interface UnexpectedExit {
  app: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  at: number;
}

/**
 * One replica of one app: a compiled entry point under dist/ as its own process, on a port
 * fixed for its whole life (a restarted gateway answers where the load client already sends).
 */
export class AppProcess {
  private child: ChildProcess | null = null;
  /** Set while the tool itself stops or kills the process: that exit is expected. */
  private stopping = false;
  /**
   * When each SIGKILL of the tool's left the process gone (ms since the epoch): a worker's
   * attempt in flight then may be delivered again (the ledger's duplicates are judged by it).
   */
  readonly killedAt: number[] = [];

  constructor(
    readonly app: AppName,
    readonly replica: number,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly logFile: string,
    private readonly onUnexpectedExit: (process: AppProcess, exit: UnexpectedExit) => void,
  ) {}

  get label(): string {
    return this.replica === 1 ? this.app : `${this.app}#${this.replica}`;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process and resolves once it answers HTTP on its port. */
  async start(timeoutMs = 60_000): Promise<void> {
    const entry = path.join(DIST_ROOT, 'apps', this.app, 'src', 'main.js');
    if (!existsSync(entry)) {
      throw new Error(
        `${entry} does not exist: build first (NX_DAEMON=false npx nx run-many -t build)`,
      );
    }
    const log = openSync(this.logFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, ['-r', REGISTER_PATHS, '-r', EXIT_WITH_PARENT, entry], {
        cwd: REPO_ROOT,
        env: {
          ...inheritedEnv(),
          // The gateway's health port: a free one, so several gateways can run side by side.
          ...(this.app === 'gateway' ? { HEALTH_PORT: '0' } : {}),
          ...this.env,
          [PORT_VARIABLE[this.app]]: String(this.port),
        },
        stdio: ['ignore', log, log, 'ipc'],
        // Its own process group: Ctrl-C reaches the tool, which stops the apps in order.
        detached: true,
      });
    } finally {
      closeSync(log);
    }
    child.on('error', () => undefined);
    this.stopping = false;
    this.child = child;
    child.once('exit', (code, signal) => {
      if (this.stopping || this.child !== child) return;
      this.onUnexpectedExit(this, { app: this.label, code, signal, at: Date.now() });
    });
    await this.waitForHttp(child, timeoutMs);
  }

  /** SIGKILL (a crash) or SIGTERM (a drain); resolves once the process is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.stopping = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    if (signal === 'SIGKILL') this.killedAt.push(Date.now());
  }

  logTail(chars = 3_000): string {
    try {
      return readFileSync(this.logFile, 'utf8').slice(-chars);
    } catch {
      return '(no log)';
    }
  }

  private async waitForHttp(child: ChildProcess, timeoutMs: number): Promise<void> {
    const url = `http://127.0.0.1:${this.port}/health`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `${this.label} exited before answering ${url}; ${this.logFile}:\n${this.logTail()}`,
        );
      }
      try {
        await fetch(url, { signal: AbortSignal.timeout(2_000) });
        return;
      } catch {
        // Not listening yet: the apps listen last, once their connections are up.
      }
      if (Date.now() > deadline) {
        await this.stop('SIGKILL');
        throw new Error(
          `${this.label} did not answer ${url} within ${timeoutMs} ms; ${this.logFile}`,
        );
      }
      await sleep(100);
    }
  }
}

/** Enough of the tool's env to run node; the apps' settings come only from the stack's env. */
function inheritedEnv(): Record<string, string> {
  const names = ['PATH', 'HOME', 'TMPDIR', 'CUSTODIAN_DIST'];
  return Object.fromEntries(
    names.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])),
  );
}

/**
 * Every replica of the three apps on one env. An app that exits without the tool asking is
 * recorded and started again a second later, as an orchestrator would: the run goes on and
 * the ledger says so.
 */
export class AppStack {
  readonly processes: AppProcess[] = [];
  readonly unexpectedExits: UnexpectedExit[] = [];

  constructor(
    private readonly env: Record<string, string>,
    private readonly logDir: string,
  ) {}

  /** Adds a replica of `app` on a free port (or `port`) and starts it. */
  async add(app: AppName, port?: number): Promise<AppProcess> {
    const replica = this.processes.filter((p) => p.app === app).length + 1;
    const replicaProcess = new AppProcess(
      app,
      replica,
      port ?? (await freePort()),
      this.env,
      path.join(this.logDir, `${app}${replica === 1 ? '' : `-${replica}`}.log`),
      (exited, exit) => this.restartAfterCrash(exited, exit),
    );
    this.processes.push(replicaProcess);
    await replicaProcess.start();
    return replicaProcess;
  }

  get(app: AppName, replica = 1): AppProcess {
    const found = this.processes.find((p) => p.app === app && p.replica === replica);
    if (!found) throw new Error(`no ${app} replica ${replica}`);
    return found;
  }

  /** The gateways' API base URLs, first replica first. */
  gatewayUrls(): string[] {
    return this.processes
      .filter((p) => p.app === 'gateway')
      .map((p) => `http://127.0.0.1:${p.port}/api/v1`);
  }

  /** Every replica of `app`, first replica first. */
  replicas(app: AppName): AppProcess[] {
    return this.processes.filter((p) => p.app === app);
  }

  /** Every SIGKILL of a webhook-worker replica so far, with when it was gone. */
  workerKills(): Array<{ worker: string; at: number }> {
    return this.replicas('webhook-worker').flatMap((p) =>
      p.killedAt.map((at) => ({ worker: p.label, at })),
    );
  }

  /** SIGTERM to every replica still running, all at once. */
  async stopAll(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.stop('SIGTERM')));
  }

  private restartAfterCrash(process: AppProcess, exit: UnexpectedExit): void {
    this.unexpectedExits.push(exit);
    console.error(
      `!! ${exit.app} exited unexpectedly (${exit.signal ?? `code ${exit.code}`}); ` +
        `starting it again. Its log:\n${process.logTail(1_500)}`,
    );
    void sleep(1_000)
      .then(() => process.start())
      .catch((error: unknown) =>
        console.error(`!! ${exit.app} did not start again: ${String(error)}`),
      );
  }
}
