import type { LoadResult } from './load';
import {
  READ_CASES,
  READ_TARGETS,
  deepPage,
  markdownTable,
  ms,
  selectCases,
  share,
  statusMix,
  type CaseMeasure,
  type ReadCase,
  type Target,
} from './read-cases';

const run = (over: Partial<LoadResult> = {}): LoadResult => ({
  name: 'run',
  requestsPerSecond: 100,
  okPerSecond: 100,
  p50: 5,
  p95: 10,
  p97_5: 12,
  p99: 15,
  errors: 0,
  non2xx: 0,
  statuses: { 200: 1000 },
  ...over,
});

const target = (name: ReadCase): Target => {
  const found = READ_TARGETS[name];
  if (!found) throw new Error(`no target for ${name}`);
  return found;
};

describe('selectCases', () => {
  it('runs every case when BENCH_CASES is unset or empty', () => {
    expect([...selectCases(undefined)]).toEqual([...READ_CASES]);
    expect([...selectCases(' , ')]).toEqual([...READ_CASES]);
  });

  it('takes a comma list, spaces allowed', () => {
    expect([...selectCases('broad, deep')]).toEqual(['broad', 'deep']);
  });

  it('refuses an unknown name, naming it and the known ones', () => {
    expect(() => selectCases('broad,brod')).toThrow(/unknown brod; known: fetch, page1/);
  });
});

describe('deepPage', () => {
  it('puts the offset at 500,000 at a million assets', () => {
    const page = deepPage(1_000_000, 200);
    expect(page).toBe(2501);
    expect((page - 1) * 200).toBe(500_000);
  });

  it('puts it at half the assets when there are fewer', () => {
    expect((deepPage(20_000, 200) - 1) * 200).toBe(10_000);
    expect(deepPage(0, 200)).toBe(1);
  });
});

describe('statusMix', () => {
  it('splits 503s by Retry-After and counts the rest apart', () => {
    const mix = statusMix(
      run({ statuses: { 200: 50, 503: 30, 504: 4, 429: 1 }, retryAfter503: 28, errors: 2 }),
    );
    expect(mix).toEqual({
      ok: 50,
      retryAfter503: 28,
      other503: 2,
      timeout504: 4,
      other: 1,
      noAnswer: 2,
    });
  });

  it('counts every 503 as without Retry-After when none was seen', () => {
    expect(statusMix(run({ statuses: { 503: 3 } })).other503).toBe(3);
  });
});

describe('READ_TARGETS', () => {
  const measure = (over: Partial<CaseMeasure> = {}): CaseMeasure => ({
    full: run(),
    bare: run(),
    steady: run(),
    ...over,
  });

  it('meets a steady p95 target at the bound, not above it or with errors', () => {
    const selective = target('selective');
    expect(selective.met(measure({ steady: run({ p95: 20 }) }))).toBe(true);
    expect(selective.met(measure({ steady: run({ p95: 20.1 }) }))).toBe(false);
    expect(selective.met(measure({ steady: run({ p95: 1, non2xx: 1 }) }))).toBe(false);
    expect(selective.met(measure({ steady: undefined }))).toBe(false);
  });

  it('holds the single fetch to 45% of bare (in 2xx a second) and a p99 of 25 ms', () => {
    const fetch = target('fetch');
    const share = (full: number, answered = full) =>
      measure({
        full: run({ okPerSecond: full, requestsPerSecond: answered }),
        bare: run({ okPerSecond: 1000, requestsPerSecond: 1000 }),
      });
    expect(fetch.met(share(450))).toBe(true);
    expect(fetch.met(share(449))).toBe(false);
    // Quick refusals do not count as work done.
    expect(fetch.met(share(300, 900))).toBe(false);
    expect(fetch.met(measure({ steady: run({ p99: 26 }) }))).toBe(false);
  });

  it('holds the unpaged array to no errors, p95 1 s and 100 MB per app', () => {
    const unpaged = target('unpaged');
    const rssMb = { gateway: 40, register: 100 };
    expect(unpaged.met(measure({ full: run({ p95: 1000 }), rssMb }))).toBe(true);
    expect(unpaged.met(measure({ full: run({ p95: 1001 }), rssMb }))).toBe(false);
    expect(unpaged.met(measure({ rssMb: { gateway: 40, register: 101 } }))).toBe(false);
    expect(unpaged.met(measure({ full: run({ errors: 1 }), rssMb }))).toBe(false);
    expect(unpaged.met(measure({ rssMb: undefined }))).toBe(false);
  });

  it('allows saturation only 200s and 503s with Retry-After, and a quick fetch beside', () => {
    const saturation = target('saturation');
    const overloaded = run({ statuses: { 200: 10, 503: 90 }, retryAfter503: 90 });
    expect(saturation.met({ full: overloaded, beside: run({ p99: 100 }) })).toBe(true);
    expect(saturation.met({ full: overloaded, beside: run({ p99: 101 }) })).toBe(false);
    expect(saturation.met({ full: overloaded, beside: run({ non2xx: 1 }) })).toBe(false);
    const withoutHeader = run({ statuses: { 200: 10, 503: 90 }, retryAfter503: 89 });
    expect(saturation.met({ full: withoutHeader, beside: run() })).toBe(false);
    const timedOut = run({ statuses: { 200: 10, 504: 1 } });
    expect(saturation.met({ full: timedOut, beside: run() })).toBe(false);
    expect(saturation.met({ full: run({ errors: 1 }), beside: run() })).toBe(false);
  });

  it('holds the booking reads to 1.5x the bare p95 at the same rate, both clean', () => {
    for (const name of ['availability', 'bookings-week'] as const) {
      const within = target(name);
      const steady = (full: number, bare: number, over: Partial<LoadResult> = {}) =>
        measure({ steady: run({ p95: full, ...over }), bareSteady: run({ p95: bare }) });
      expect(within.met(steady(15, 10))).toBe(true);
      expect(within.met(steady(15.1, 10))).toBe(false);
      expect(within.met(steady(1, 10, { errors: 1 }))).toBe(false);
      expect(within.met(measure({ steady: run({ p95: 1 }) }))).toBe(false);
      expect(within.met(measure({ steady: run({ p95: 1 }), bareSteady: run({ non2xx: 1 }) }))).toBe(
        false,
      );
    }
  });

  it('has none for the cases issue 13 gives no figure', () => {
    expect(READ_TARGETS.exact).toBeUndefined();
    expect(READ_TARGETS.punctuation).toBeUndefined();
  });
});

describe('markdownTable', () => {
  it('writes a header, a rule and one line per row', () => {
    expect(markdownTable(['a', 'b'], [['1', '2']])).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });
});

describe('ms', () => {
  it('shows whole milliseconds from 10, one decimal below, a dash for none', () => {
    expect(ms(123.46)).toBe('123');
    expect(ms(4.26)).toBe('4.3');
    expect(ms(Number.NaN)).toBe('-');
  });
});

describe('share', () => {
  it('is the full rate as a percentage of the bare one, a dash for no bare rate', () => {
    expect(share(45, 100)).toBe('45%');
    expect(share(6, 0)).toBe('-');
  });
});
