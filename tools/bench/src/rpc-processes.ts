import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';

/** The environment the RPC bench hands its server and client processes. */
export const RPC_ENV = {
  queue: 'BENCH_RPC_QUEUE',
  /** golevelup routes by exchange and routing key; libs/messaging uses the default exchange. */
  exchange: 'BENCH_RPC_EXCHANGE',
  handlerMs: 'BENCH_RPC_HANDLER_MS',
  /** The register's own setting, with its default (apps/register register-config.ts). */
  prefetch: 'RPC_PREFETCH',
  transport: 'BENCH_RPC_TRANSPORT',
  /** The server creates it once it consumes. */
  readyFile: 'BENCH_RPC_READY_FILE',
  /** The client writes its RpcRunResult there. */
  resultFile: 'BENCH_RPC_RESULT_FILE',
  serverPid: 'BENCH_RPC_SERVER_PID',
} as const;

export const DEFAULT_PREFETCH = 20;

export type RpcTransport = 'messaging' | 'golevelup';

/** What the client process reports of one measured run. */
export interface RpcRunResult {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  serverCpuMs: number;
  clientCpuMs: number;
}

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

export function signalReady(): void {
  writeFileSync(requiredEnv(RPC_ENV.readyFile), String(process.pid));
}

/** Waits until `child` has created `file`; fails if it exits first or takes too long. */
export async function waitForFile(
  file: string,
  child: ChildProcess,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}) early`);
    if (Date.now() > deadline) throw new Error(`${file} did not appear in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** USER_HZ: the unit of /proc's CPU times, 100 on every Linux the bench runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** User plus system CPU time another process has used so far, in ms (Linux /proc). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[14 - 3]) + Number(fields[15 - 3]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
