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
