import { Admission, AdmissionRefused } from './admission';

/** A work that runs until the test ends it: what a long query is to the limiter. */
function held() {
  let end!: (value: string) => void;
  let started = false;
  const promise = new Promise<string>((resolve) => (end = resolve));
  return {
    work: () => {
      started = true;
      return promise;
    },
    end,
    get started() {
      return started;
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

async function refusal(promise: Promise<unknown>): Promise<AdmissionRefused> {
  const outcome = await promise.then(
    () => new Error('expected a refusal, got a result'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof AdmissionRefused)) throw outcome;
  return outcome;
}

describe('Admission', () => {
  const later = () => Date.now() + 60_000;

  it('runs up to `concurrency` works at once and the rest wait their turn, first come first', async () => {
    const admission = new Admission({ concurrency: 2, line: 2 });
    const [a, b, c, d] = [held(), held(), held(), held()];
    const results = [a, b, c, d].map((w) => admission.run(later(), w.work));
    await settle();
    expect([a.started, b.started, c.started, d.started]).toEqual([true, true, false, false]);
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({
      running: 2,
      waiting: 2,
    });

    b.end('b');
    await settle();
    expect([c.started, d.started]).toEqual([true, false]);
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({
      running: 2,
      waiting: 1,
    });

    a.end('a');
    c.end('c');
    await settle();
    expect(d.started).toBe(true);
    d.end('d');
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'd']);
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({
      running: 0,
      waiting: 0,
    });
  });

  it('refuses at once, without running it, a work that finds the line full', async () => {
    const admission = new Admission({ concurrency: 1, line: 1 });
    const [a, b, c] = [held(), held(), held()];
    const first = admission.run(later(), a.work);
    const second = admission.run(later(), b.work);
    const started = Date.now();
    const refused = await refusal(admission.run(later(), c.work));
    expect(refused.reason).toBe('full');
    expect(Date.now() - started).toBeLessThan(50);
    expect(c.started).toBe(false);
    a.end('a');
    b.end('b');
    await expect(Promise.all([first, second])).resolves.toEqual(['a', 'b']);
  });

  it('with no line, refuses whatever comes while every turn is taken', async () => {
    const admission = new Admission({ concurrency: 1, line: 0 });
    const a = held();
    const first = admission.run(later(), a.work);
    expect((await refusal(admission.run(later(), held().work))).reason).toBe('full');
    a.end('a');
    await first;
    await expect(admission.run(later(), () => Promise.resolve('next'))).resolves.toBe('next');
  });

  it('lets a waiter go when its wait runs out, and frees its place in the line at once', async () => {
    const admission = new Admission({ concurrency: 1, line: 1 });
    const [a, b, c] = [held(), held(), held()];
    const first = admission.run(later(), a.work);
    const started = Date.now();
    const refused = await refusal(admission.run(Date.now() + 30, b.work));
    const waited = Date.now() - started;
    expect(refused.reason).toBe('waited');
    expect(waited).toBeGreaterThanOrEqual(25);
    expect(waited).toBeLessThan(500);
    expect(b.started).toBe(false);
    // The line is empty again although the first work still runs: a new caller may wait.
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({
      running: 1,
      waiting: 0,
    });
    const third = admission.run(later(), c.work);
    a.end('a');
    await settle();
    expect(c.started).toBe(true);
    c.end('c');
    await expect(Promise.all([first, third])).resolves.toEqual(['a', 'c']);
  });

  it('refuses at once a work with no time left to wait when every turn is taken', async () => {
    const admission = new Admission({ concurrency: 1, line: 4 });
    const a = held();
    const first = admission.run(later(), a.work);
    expect((await refusal(admission.run(Date.now() - 1, held().work))).reason).toBe('slow');
    expect(admission.waiting).toBe(0);
    a.end('a');
    await first;
  });

  it('learns how long works run, and refuses at once one whose turn would come too late', async () => {
    const admission = new Admission({ concurrency: 1, line: 10 });
    expect(admission.typicalRun).toBeNull();
    await admission.run(later(), () => new Promise((resolve) => setTimeout(resolve, 60)));
    const typical = admission.typicalRun ?? 0;
    expect(typical).toBeGreaterThanOrEqual(55);
    expect(typical).toBeLessThan(500);

    const a = held();
    const first = admission.run(later(), a.work);
    // One waiter's turn comes after one run (~60 ms): it may wait 3 runs' worth...
    const [b, c] = [held(), held()];
    const second = admission.run(Date.now() + typical * 3, b.work);
    // ...but a second waiter's after two runs, more than it may wait: refused now.
    const started = Date.now();
    const refused = await refusal(admission.run(Date.now() + typical * 1.5, c.work));
    expect(refused.reason).toBe('slow');
    expect(Date.now() - started).toBeLessThan(30);
    expect(c.started).toBe(false);
    expect(admission.waiting).toBe(1);
    a.end('a');
    await settle();
    expect(b.started).toBe(true);
    b.end('b');
    await expect(Promise.all([first, second])).resolves.toEqual(['a', 'b']);
  });

  it('queues a burst of quick works and serves every one', async () => {
    const admission = new Admission({ concurrency: 2, line: 18 });
    await admission.run(later(), () => Promise.resolve('warm'));
    const quick = (i: number) => () =>
      new Promise<number>((resolve) => setTimeout(() => resolve(i), 2));
    const burst = Array.from({ length: 20 }, (_, i) => admission.run(Date.now() + 1_000, quick(i)));
    await expect(Promise.all(burst)).resolves.toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('runs at once, whatever its wait allows, a work that finds a free turn', async () => {
    const admission = new Admission({ concurrency: 1, line: 0 });
    await expect(admission.run(Date.now() - 1_000, () => Promise.resolve(1))).resolves.toBe(1);
  });

  it('gives the turn back when a work fails, and passes its error on', async () => {
    const admission = new Admission({ concurrency: 1, line: 1 });
    const failed = admission.run(later(), () => Promise.reject(new Error('query failed')));
    const next = admission.run(later(), () => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('query failed');
    await expect(next).resolves.toBe('next');
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({
      running: 0,
      waiting: 0,
    });
  });

  it('refuses limits that would admit nothing', () => {
    expect(() => new Admission({ concurrency: 0, line: 1 })).toThrow(/invalid admission limits/);
    expect(() => new Admission({ concurrency: 1, line: -1 })).toThrow(/invalid admission limits/);
  });
});
