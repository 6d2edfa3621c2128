/**
 * A piece of background work run every `everyMs`, one run at a time (a tick that comes while
 * a run is still going joins it rather than starting another); a failed run is reported and
 * left to the next tick. The lifecycle methods are Nest's (OnApplicationBootstrap,
 * BeforeApplicationShutdown): an app's job subclasses this and is a provider, and shutdown
 * waits for the run in progress.
 */
export abstract class PeriodicJob<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;

  protected constructor(
    private readonly everyMs: number,
    private readonly warn: (message: string) => void,
    /** What a failed run answers, after it was reported. */
    private readonly onFailure: T,
  ) {}

  /** One run of the work. */
  protected abstract work(): Promise<T>;

  /** What the work does, for the report of a failed run: `<label> deferred: <error>`. */
  protected abstract label(): string;

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runOnce(), this.everyMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Runs the work now, or joins the run in progress. */
  protected runOnce(): Promise<T> {
    this.running ??= this.work()
      .catch((error: Error) => {
        this.warn(`${this.label()} deferred: ${error.message}`);
        return this.onFailure;
      })
      .finally(() => (this.running = null));
    return this.running;
  }
}

/**
 * Background work done in steps, each claiming one piece (an audit to complete, an import to
 * apply) in a transaction of its own: a run steps until a step finds nothing (`'idle'`). A
 * service kicks it right after the commit that gave it work; the poll every `everyMs` picks
 * up what a crashed or restarted replica left. A kick during a run makes the run go round
 * once more, so work committed while it stepped is not left to the poll.
 */
export abstract class SteppedJob<Step extends string> extends PeriodicJob<number> {
  private again = false;

  /** One step; `'idle'` when there was nothing to do. */
  abstract step(): Promise<Step | 'idle'>;

  /** Runs the steps now (after a commit that gave them work); a run in progress goes on. */
  kick(): void {
    this.again = true;
    void this.runOnce();
  }

  /** Steps until none has work left; answers how many steps ran. */
  async runPending(): Promise<number> {
    let steps = 0;
    do {
      this.again = false;
      while ((await this.step()) !== 'idle') steps += 1;
    } while (this.again);
    return steps;
  }

  protected work(): Promise<number> {
    return this.runPending();
  }
}
