import { SharedRuns } from './shared-runs';

/** A run the test finishes by hand, counting how many were started. */
function controlled() {
  const finishers: Array<(value: string) => void> = [];
  const failers: Array<(error: Error) => void> = [];
  let started = 0;
  const work = () =>
    new Promise<string>((resolve, reject) => {
      started++;
      finishers.push(resolve);
      failers.push(reject);
    });
  return {
    work,
    started: () => started,
    finish: (i: number, value: string) => finishers[i]?.(value),
    fail: (i: number, error: Error) => failers[i]?.(error),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('SharedRuns', () => {
  it('gives callers who arrive before a run starts that one run', async () => {
    const runs = new SharedRuns<string>();
    const c = controlled();
    const answers = Promise.all([1, 2, 3].map(() => runs.run('k', c.work)));
    await tick();
    expect(c.started()).toBe(1);
    c.finish(0, 'rows');
    expect(await answers).toEqual(['rows', 'rows', 'rows']);
    expect(runs.size).toBe(0);
  });

  it('makes callers who arrive during a run wait for the next one, which they share', async () => {
    const runs = new SharedRuns<string>();
    const c = controlled();
    const first = runs.run('k', c.work);
    await tick();
    const later = [runs.run('k', c.work), runs.run('k', c.work)];
    await tick();
    // Not joined to the run in progress, and not started beside it.
    expect(c.started()).toBe(1);
    c.finish(0, 'before');
    expect(await first).toBe('before');
    await tick();
    expect(c.started()).toBe(2);
    c.finish(1, 'after');
    expect(await Promise.all(later)).toEqual(['after', 'after']);
    expect(runs.size).toBe(0);
  });

  it('keeps keys apart', async () => {
    const runs = new SharedRuns<string>();
    const c = controlled();
    const a = runs.run('a', c.work);
    const b = runs.run('b', c.work);
    await tick();
    expect(c.started()).toBe(2);
    c.finish(0, 'A');
    c.finish(1, 'B');
    expect([await a, await b]).toEqual(['A', 'B']);
  });

  it('gives every caller of a failed run its error, and starts the next run anyway', async () => {
    const runs = new SharedRuns<string>();
    const c = controlled();
    const failing = [runs.run('k', c.work), runs.run('k', c.work)];
    await tick();
    const next = runs.run('k', c.work);
    c.fail(0, new Error('overloaded'));
    for (const answer of failing) await expect(answer).rejects.toThrow('overloaded');
    await tick();
    expect(c.started()).toBe(2);
    c.finish(1, 'rows');
    expect(await next).toBe('rows');
    expect(runs.size).toBe(0);
  });
});
