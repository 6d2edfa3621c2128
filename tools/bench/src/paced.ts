import http from 'node:http';
import { okCount, type LoadResult } from './load';
import { quantile } from './quantile';

export interface PacedOptions {
  name: string;
  url: string;
  paths: string[];
  headers?: Record<string, string>;
  ratePerSecond: number;
  durationSeconds: number;
  connections: number;
  /** POST this JSON body (by the request's index) to each path instead of GETting it. */
  postBody?: (index: number) => string;
}

/**
 * Open-loop load at a steady rate: one request every 1/rate seconds, whether or not earlier
 * ones have answered, so latency includes any queueing. autocannon's rate limit releases
 * each second's budget in a burst, which measures the burst rather than the service.
 */
export async function paced(options: PacedOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const base = new URL(options.url);
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const statuses: Record<string, number> = {};
  let sent = 0;
  const total = Math.round(options.ratePerSecond * options.durationSeconds);
  const started = performance.now();
  const inFlight = new Set<Promise<void>>();

  const fire = (path: string, index: number) => {
    const t0 = performance.now();
    const body = options.postBody?.(index);
    const request = new Promise<void>((resolve) => {
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          path,
          method: body === undefined ? 'GET' : 'POST',
          agent,
          headers:
            body === undefined
              ? options.headers
              : {
                  ...options.headers,
                  'content-type': 'application/json',
                  'content-length': String(Buffer.byteLength(body)),
                },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            const status = res.statusCode ?? 0;
            if (status >= 300) non2xx++;
            statuses[status] = (statuses[status] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
    inFlight.add(request);
    void request.then(() => inFlight.delete(request));
  };

  while (sent < total) {
    const due = Math.min(
      total,
      Math.floor(((performance.now() - started) / 1000) * options.ratePerSecond),
    );
    for (; sent < due; sent++) fire(pathAt(options.paths, sent), sent);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  agent.destroy();
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(quantile(latencies, q) * 10) / 10;
  return {
    name: options.name,
    requestsPerSecond: latencies.length / elapsed,
    okPerSecond: okCount(statuses) / elapsed,
    p50: at(0.5),
    p95: at(0.95),
    p97_5: at(0.975),
    p99: at(0.99),
    errors,
    non2xx,
    statuses,
  };
}

/** The paths are sent in turn. */
function pathAt(paths: string[], i: number): string {
  const path = paths[i % paths.length];
  if (path === undefined) throw new Error('paced needs at least one path');
  return path;
}
