import type { LoadResult } from './load';

/** The cases of `npm run bench -- reads`, in the order they run; BENCH_CASES picks some. */
export const READ_CASES = [
  'fetch',
  'page1',
  'selective',
  'broad',
  'broad-pages',
  'two-word',
  'exact',
  'punctuation',
  'deep',
  'sorted',
  'availability',
  'bookings-week',
  'unpaged',
  'saturation',
  'tenant',
] as const;

export type ReadCase = (typeof READ_CASES)[number];

/** The bare handler's workspace for one request; without it, its BENCH_WORKSPACE_ID. */
export const BARE_WORKSPACE_HEADER = 'x-bench-workspace';

/** What one case measured: the full path, and where it applies the rest. */
export interface CaseMeasure {
  full: LoadResult;
  bare?: LoadResult;
  /** The full path at a steady half of its peak rate. */
  steady?: LoadResult;
  /**
   * The bare handler at that same rate: what the same SQL costs without the hops (HTTP, auth
   * and limits, RabbitMQ, Nest), so a miss can be told apart from the machine's own floor.
   */
  bareSteady?: LoadResult;
  /** RSS growth during the full path's run, MB per app (gateway, register). */
  rssMb?: Record<string, number>;
  /** RSS growth of the bare handler during its run, MB. */
  bareRssMb?: Record<string, number>;
  /** Saturation: the single fetches paced beside the overload. */
  beside?: LoadResult;
  /**
   * The slowest of the first request of each path through the full path, before any other:
   * what a term costs before the register's list cache knows it (docs/adr/0014), ms.
   */
  firstMs?: number;
}

export interface Target {
  /** As issue 13 states it. */
  text: string;
  met: (measure: CaseMeasure) => boolean;
}

/** A run with errors or non-2xx answers meets no latency target. */
const clean = (run: LoadResult | undefined): run is LoadResult =>
  run !== undefined && run.errors === 0 && run.non2xx === 0;

const steadyP95 = (ms: number): Target => ({
  text: `p95 <= ${ms} ms at half peak`,
  met: ({ steady }) => clean(steady) && steady.p95 <= ms,
});

/**
 * Issue 32's: the full path's p95 at half peak within `ratio` times the bare handler's at the
 * same rate, same run, both clean.
 */
const withinBare = (ratio: number): Target => ({
  text: `p95 <= ${ratio}x bare's at half peak`,
  met: ({ steady, bareSteady }) =>
    clean(steady) && clean(bareSteady) && steady.p95 <= ratio * bareSteady.p95,
});

/** Issue 13's targets (this machine, same run), and issue 32's. Cases without one only report. */
export const READ_TARGETS: Partial<Record<ReadCase, Target>> = {
  fetch: {
    text: 'full path >= 45% of bare; p99 <= 25 ms at half peak',
    met: ({ full, bare, steady }) =>
      bare !== undefined &&
      full.okPerSecond >= 0.45 * bare.okPerSecond &&
      clean(steady) &&
      steady.p99 <= 25,
  },
  page1: steadyP95(20),
  selective: steadyP95(20),
  broad: steadyP95(150),
  'broad-pages': steadyP95(20),
  'two-word': steadyP95(30),
  deep: steadyP95(50),
  // Issue 14 set no target for a sorted page; held to the default order's page 1.
  sorted: steadyP95(20),
  tenant: steadyP95(10),
  availability: withinBare(1.5),
  'bookings-week': withinBare(1.5),
  unpaged: {
    text: '0 errors; p95 <= 1 s; RSS growth <= 100 MB per app',
    met: ({ full, rssMb }) =>
      clean(full) &&
      full.p95 <= 1000 &&
      rssMb !== undefined &&
      Object.values(rssMb).every((mb) => mb <= 100),
  },
  saturation: {
    text: '0 errors other than 503 + Retry-After; single fetch beside it p99 <= 100 ms',
    met: ({ full, beside }) => {
      const mix = statusMix(full);
      const unwanted = mix.other503 + mix.timeout504 + mix.other + mix.noAnswer;
      return unwanted === 0 && clean(beside) && beside.p99 <= 100;
    },
  },
};

/** `BENCH_CASES=broad,deep`: those cases; unset or empty: all. Unknown names are refused. */
export function selectCases(raw: string | undefined): Set<ReadCase> {
  const names = (raw ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return new Set(READ_CASES);
  const known = new Set<string>(READ_CASES);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(`BENCH_CASES: unknown ${unknown.join(', ')}; known: ${READ_CASES.join(', ')}`);
  }
  return new Set(names as ReadCase[]);
}

/** The page of `pageSize` whose offset is about 500,000, or half the assets when fewer. */
export function deepPage(assets: number, pageSize: number): number {
  const offset = Math.min(500_000, Math.floor(assets / 2));
  return Math.floor(offset / pageSize) + 1;
}

export interface StatusMix {
  ok: number;
  retryAfter503: number;
  /** 503 without Retry-After: the caller is not told when to come back. */
  other503: number;
  timeout504: number;
  other: number;
  /** Socket errors and client timeouts. */
  noAnswer: number;
}

/** How an overloaded run was answered; `retryAfter503` must have been counted. */
export function statusMix(run: LoadResult): StatusMix {
  const count = (code: number) => run.statuses[String(code)] ?? 0;
  const all = Object.values(run.statuses).reduce((sum, n) => sum + n, 0);
  const retryAfter503 = Math.min(run.retryAfter503 ?? 0, count(503));
  return {
    ok: count(200),
    retryAfter503,
    other503: count(503) - retryAfter503,
    timeout504: count(504),
    other: all - count(200) - count(503) - count(504),
    noAnswer: run.errors,
  };
}

/** A markdown table; cells are written as given. */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The full path's rate as a share of the bare handler's; a dash when the bare one did none. */
export function share(full: number, bare: number): string {
  return bare > 0 ? `${((100 * full) / bare).toFixed(0)}%` : '-';
}

/** Milliseconds as the tables show them: whole above 10, one decimal below. */
export function ms(value: number): string {
  if (Number.isNaN(value)) return '-';
  return value >= 10 ? value.toFixed(0) : value.toFixed(1);
}
