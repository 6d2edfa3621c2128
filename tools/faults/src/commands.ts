import { spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';

export interface CommandResult {
  code: number;
  output: string;
}

export interface CommandOptions {
  env?: Record<string, string>;
  /**
   * The system account to run it as when this process is root: initdb and RabbitMQ refuse
   * root (or write files only their own account may read later).
   */
  user?: string;
  timeoutMs?: number;
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** Runs a command to its end; stdout and stderr together, for error messages. */
export function runCommand(
  command: string,
  args: string[],
  options: CommandOptions = {},
): Promise<CommandResult> {
  const [file, argv] =
    options.user && isRoot()
      ? ['runuser', ['-u', options.user, '--', command, ...args]]
      : [command, args];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a Ctrl-C meant for the tool does not reach it half-way.
      detached: true,
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

/** Like runCommand, but a non-zero exit is an error naming the command and its output. */
export async function mustRun(
  command: string,
  args: string[],
  options: CommandOptions = {},
): Promise<string> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}: ${result.output.trim()}`);
  }
  return result.output;
}

/**
 * A local TCP port nothing listens on at the moment of asking (another process may still take
 * it first: the services that bind it fail loudly then).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Whether something accepts TCP connections on 127.0.0.1:port right now. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1');
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` every `everyMs` until it is true; false if `timeoutMs` passed first. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}
