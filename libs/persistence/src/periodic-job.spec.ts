import { PeriodicJob } from './periodic-job';

/** A job whose runs the test finishes by hand, counting how many started. */
class Gated extends PeriodicJob<number> {
  started = 0;
  readonly warnings: string[] = [];
  private finish: ((value: number) => void) | null = null;
  private fail: ((error: Error) => void) | null = null;

  constructor() {
    super(60_000, (message) => this.warnings.push(message), -1);
  }

  run(): Promise<number> {
    return this.runOnce();
  }

  end(value: number): void {
    this.finish?.(value);
  }

  breakWith(message: string): void {
    this.fail?.(new Error(message));
  }

  protected work(): Promise<number> {
    this.started += 1;
    return new Promise((resolve, reject) => {
      this.finish = resolve;
      this.fail = reject;
    });
  }

  protected label(): string {
    return 'gated work';
  }
}

describe('PeriodicJob', () => {
  it('runs one at a time: a run asked for while one is going joins it', async () => {
    const job = new Gated();
    const first = job.run();
    const second = job.run();
    expect(job.started).toBe(1);
    job.end(7);
    await expect(Promise.all([first, second])).resolves.toEqual([7, 7]);
    // Once it ended, the next one is a new run.
    const third = job.run();
    expect(job.started).toBe(2);
    job.end(8);
    await expect(third).resolves.toBe(8);
  });

  it('reports a failed run by its label and answers the failure value, then runs again', async () => {
    const job = new Gated();
    const failed = job.run();
    job.breakWith('connection refused');
    await expect(failed).resolves.toBe(-1);
    expect(job.warnings).toEqual(['gated work deferred: connection refused']);
    const next = job.run();
    job.end(1);
    await expect(next).resolves.toBe(1);
  });

  it('waits at shutdown for the run in progress', async () => {
    const job = new Gated();
    job.onApplicationBootstrap();
    void job.run();
    let stopped = false;
    const stopping = job.beforeApplicationShutdown().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    job.end(3);
    await stopping;
    expect(stopped).toBe(true);
  });
});
