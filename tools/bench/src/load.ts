import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  /** Only the steady-rate runner measures it; autocannon reports p97.5 instead. */
  p95?: number;
  p97_5: number;
  p99: number;
  errors: number;
  non2xx: number;
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
}

/** One autocannon run, cycling through `paths` so the database is not read one row only. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 32,
    duration: options.durationSeconds ?? 10,
    overallRate: options.overallRate,
    headers: options.headers,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({
          ...request,
          path: options.paths[next++ % options.paths.length],
        }),
      },
    ],
  });
  return {
    name: options.name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
