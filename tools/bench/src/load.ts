import autocannon from 'autocannon';
import { quantile } from './quantile';

export interface LoadResult {
  name: string;
  /** Every answer a second, refusals (503) included. */
  requestsPerSecond: number;
  /** 2xx answers a second: the work done; "peak" and "half the peak" are of this. */
  okPerSecond: number;
  p50: number;
  p95: number;
  p97_5: number;
  p99: number;
  /** Socket errors and timeouts: requests that got no answer. */
  errors: number;
  non2xx: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** 503 answers that carried a Retry-After header; counted only when asked for. */
  retryAfter503?: number;
}

export interface LoadOptions {
  name: string;
  url: string;
  paths: string[];
  headers?: Record<string, string>;
  connections?: number;
  durationSeconds?: number;
  /** Requests per second across all connections; unset means as fast as possible. */
  overallRate?: number;
  /** Count the 503s that carry Retry-After (autocannon then buffers every body). */
  countRetryAfter?: boolean;
  /** POST this JSON body to every path instead of GETting them. */
  postJson?: string;
}

/** One autocannon run, cycling through `paths` so the database is not read one row only. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  let next = 0;
  let retryAfter503 = 0;
  // autocannon's percentiles stop at p90 and p97.5; the steady tables and targets use p95.
  const latencies: number[] = [];
  const onResponse = (status: number, _body: string, _context: object, headers?: object) => {
    const named = Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'retry-after');
    if (status === 503 && named) retryAfter503++;
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections ?? 32,
        duration: options.durationSeconds ?? 10,
        overallRate: options.overallRate,
        headers: options.headers,
        requests: [
          {
            method: options.postJson === undefined ? 'GET' : 'POST',
            ...(options.postJson === undefined
              ? {}
              : { body: options.postJson, headers: { 'content-type': 'application/json' } }),
            setupRequest: (request) => ({
              ...request,
              path: options.paths[next++ % options.paths.length],
            }),
            ...(options.countRetryAfter ? { onResponse } : {}),
          },
        ],
      },
      (error: unknown, done) => (error ? reject(toError(error)) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(quantile(latencies, q) * 10) / 10;
  const statuses: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statuses[code] = stats.count ?? 0;
  }
  return {
    name: options.name,
    requestsPerSecond: result.requests.average,
    okPerSecond: okCount(statuses) / (options.durationSeconds ?? 10),
    p50: at(0.5),
    p95: at(0.95),
    p97_5: at(0.975),
    p99: at(0.99),
    // autocannon counts a timeout in both `errors` and `timeouts`.
    errors: result.errors,
    non2xx: result.non2xx,
    statuses,
    ...(options.countRetryAfter ? { retryAfter503 } : {}),
  };
}

/** The 2xx answers among `statuses` (answers by status code). */
export function okCount(statuses: Record<string, number>): number {
  return Object.entries(statuses)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
