import { spawn, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import { freePort } from './ports';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM, then waits for the process to exit). */
  stop(): Promise<void>;
  /** Stops and starts it again on the same port: its data is gone, as after a real restart. */
  restart(): Promise<void>;
  /** Sends one command over a fresh connection and returns the raw RESP reply. */
  command(...args: string[]): Promise<string>;
  /** Calls per command name from `INFO commandstats` (commands run by scripts included). */
  commandCounts(): Promise<Record<string, number>>;
  /**
   * Starts `MONITOR`: every command the server runs from now on, one line each; commands run
   * inside a Lua script are marked `[0 lua]`, those sent by clients carry the client address.
   */
  monitor(): Promise<RedisMonitor>;
}

export interface RedisMonitor {
  /** Lines seen so far (`+<time> [<db> <client>] "<command>" ...`). */
  readonly lines: string[];
  stop(): Promise<void>;
}

const REDIS_SERVER_BIN = process.env.REDIS_SERVER_BIN ?? 'redis-server';

/**
 * A dedicated, real `redis-server` on a free local port, without persistence: for tests that
 * count the commands the apps send, or restart Redis under them. Nothing else talks to it.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = await launch(port);

  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  };

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    restart: async () => {
      await stop();
      child = await launch(port);
    },
    command: (...args) => sendCommand(port, args),
    commandCounts: async () => parseCommandStats(await sendCommand(port, ['INFO', 'commandstats'])),
    monitor: () => startMonitor(port),
  };
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER_BIN,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 5_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`redis-server on port ${port} exited (${child.exitCode}): ${stderr}`);
    }
    try {
      if ((await sendCommand(port, ['PING'])).startsWith('+PONG')) return child;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server on port ${port} did not answer PING: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One RESP command over a new connection; resolves with the complete raw reply. */
function sendCommand(port: number, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let reply = '';
    socket.setTimeout(2_000, () => socket.destroy(new Error('redis command timed out')));
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (isComplete(reply)) {
        socket.end();
        resolve(reply);
      }
    });
    socket.connect(port, '127.0.0.1', () => {
      let out = `*${args.length}\r\n`;
      for (const arg of args) out += `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`;
      socket.write(out);
    });
  });
}

function parseCommandStats(reply: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const match of reply.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    counts[match[1]!] = Number(match[2]);
  }
  return counts;
}

function startMonitor(port: number): Promise<RedisMonitor> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    const lines: string[] = [];
    let buffer = '';
    let started = false;
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!started) {
          started = true; // The +OK of MONITOR itself.
          resolve({
            lines,
            stop: () =>
              new Promise<void>((done) => {
                socket.once('close', () => done());
                socket.destroy();
              }),
          });
          continue;
        }
        lines.push(line);
      }
    });
    socket.connect(port, '127.0.0.1', () => socket.write('*1\r\n$7\r\nMONITOR\r\n'));
  });
}

/** Whether a buffered reply is whole: simple lines, or a bulk string of its announced length. */
function isComplete(reply: string): boolean {
  const lineEnd = reply.indexOf('\r\n');
  if (lineEnd < 0) return false;
  if (reply[0] !== '$') return true;
  const length = Number(reply.slice(1, lineEnd));
  return length < 0 || Buffer.byteLength(reply) >= lineEnd + 2 + length + 2;
}
