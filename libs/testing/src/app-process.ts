import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { unobservedFetch } from './response-observer';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Where `npm run build` writes; CUSTODIAN_DIST moves it, as in tools/runtime/register-paths.js. */
export const DIST_ROOT = process.env.CUSTODIAN_DIST ?? path.join(REPO_ROOT, 'dist');

/** Maps the compiled `@custodian/*` imports onto dist/, as every production start does. */
const REGISTER_PATHS = path.join(REPO_ROOT, 'tools/runtime/register-paths.js');

/** Loaded into every long-running process started here: see the file. */
const EXIT_WITH_PARENT = path.join(__dirname, 'exit-with-parent.js');

/**
 * What a started process inherits from the test process: enough to run node, nothing that
 * configures the apps (each app's settings come from the env the caller passes, only).
 */
const INHERITED_ENV = ['PATH', 'HOME', 'TMPDIR', 'NODE_ENV', 'CUSTODIAN_DIST'];

export interface NodeEntry {
  /** A compiled entry point under dist/, e.g. `apps/gateway/src/main.js`. */
  entry: string;
  args?: string[];
  /** The process's configuration; merged over the few inherited variables. */
  env: Record<string, string | undefined>;
}

export interface AppProcessOptions extends NodeEntry {
  /** Names the process in errors: `gateway`, `register`, ... */
  name: string;
  /** The process's stdout and stderr are appended to this file. */
  logFile: string;
  /** Modules to load before the entry point (`node -r`), such as a probe that answers `ask`. */
  preload?: string[];
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A compiled app of this repository running as its own process, as in production: started
 * with `node -r tools/runtime/register-paths.js dist/<entry>`, stopped with a signal.
 */
export class AppProcess {
  /** Settles when the process has exited, however that happened. */
  readonly exited: Promise<Exit>;

  private constructor(
    readonly name: string,
    readonly logFile: string,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    // A failed spawn also ends in 'exit'; the log says why.
    child.on('error', () => undefined);
  }

  static start(options: AppProcessOptions): AppProcess {
    const log = openSync(options.logFile, 'a');
    try {
      const child = spawn(
        process.execPath,
        nodeArgs(options, [EXIT_WITH_PARENT, ...(options.preload ?? [])]),
        { cwd: REPO_ROOT, env: processEnv(options.env), stdio: ['ignore', log, log, 'ipc'] },
      );
      return new AppProcess(options.name, options.logFile, child);
    } finally {
      // The child has its own copy of the descriptor.
      closeSync(log);
    }
  }

  /** The process id: apps name their RabbitMQ connection `<app> (<host>:<pid>)`. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Resolves once `url` answers HTTP at all: the apps listen last, after their queues and
   * connections are up. Fails with the log's tail if the process exits or the time runs out.
   */
  async waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) {
        const { code, signal } = await this.exited;
        throw new Error(
          `${this.name} exited (${signal ?? `code ${code}`}) before answering ${url}; ` +
            `${this.logFile}:\n${this.logTail()}`,
        );
      }
      try {
        await unobservedFetch(url, { signal: AbortSignal.timeout(2_000) });
        return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        await this.stop('SIGKILL');
        throw new Error(
          `${this.name} did not answer ${url} within ${timeoutMs} ms; ${this.logFile}:\n` +
            this.logTail(),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Sends `signal` (SIGTERM: the app drains and closes its connections; SIGKILL: a crash) and
   * resolves once the process is gone, killing it if it is still there after `graceMs`.
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<Exit> {
    if (this.running) {
      this.child.kill(signal);
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    return this.exited;
  }

  /** Asks a preloaded probe (see `AppProcessOptions.preload`) over IPC for its `probe` value. */
  ask<T>(probe: string, timeoutMs = 5_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: unknown) => {
        const reply = message as { probe?: unknown; value?: T } | null;
        if (reply?.probe !== probe) return;
        done();
        resolve(reply.value as T);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${this.name} did not answer the ${probe} probe`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
      };
      this.child.on('message', onMessage);
      this.child.send({ probe });
    });
  }

  /** The end of the process's log, for error messages. */
  logTail(chars = 4_000): string {
    try {
      return readFileSync(this.logFile, 'utf8').slice(-chars);
    } catch {
      return '(no log)';
    }
  }
}

export interface Completed {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a compiled entry point (a CLI, a migration) to its end: exit code and output. */
export function runNodeEntry(options: NodeEntry): Promise<Completed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs(options, []), {
      cwd: REPO_ROOT,
      env: processEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr }),
    );
  });
}

function nodeArgs(options: NodeEntry, preload: string[]): string[] {
  const file = path.join(DIST_ROOT, options.entry);
  if (!existsSync(file)) {
    throw new Error(`${file} does not exist: these tests run the built code; run npm run build`);
  }
  return [
    ...[REGISTER_PATHS, ...preload].flatMap((module) => ['-r', module]),
    file,
    ...(options.args ?? []),
  ];
}

function processEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    INHERITED_ENV.filter((name) => process.env[name] !== undefined).map((name) => [
      name,
      process.env[name],
    ]),
  );
  return { ...inherited, ...env };
}
