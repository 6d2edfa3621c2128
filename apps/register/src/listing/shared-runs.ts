/**
 * Identical reads share a run: a request for what a run in progress is already reading waits
 * for the next run and shares it with every request that arrived meanwhile. Never the run in
 * progress, whose snapshot may predate the request: what a caller gets was read after it
 * asked. For the unpaged lists (10,000 rows, ~120 ms of CPU each on this machine's two cores,
 * docs/adr/0014): 32 callers of the same list cost about two runs instead of 32.
 *
 * A shared run runs as its first caller's request (its deadline, its admission); the others
 * get its answer or its error. At most one run in progress and one waiting per key.
 */
export class SharedRuns<T> {
  private readonly running = new Map<string, Promise<T>>();
  private readonly waiting = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const waiting = this.waiting.get(key);
    if (waiting) return waiting;
    const ahead = this.running.get(key);
    // `then` runs after this method returns, so the run is registered as waiting before it
    // starts, and stops taking newcomers the moment it does.
    const run = (ahead ? ahead.then(noop, noop) : Promise.resolve()).then(() => {
      this.waiting.delete(key);
      this.running.set(key, run);
      return work();
    });
    this.waiting.set(key, run);
    const done = () => {
      if (this.running.get(key) === run) this.running.delete(key);
    };
    run.then(done, done);
    return run;
  }

  /** Keys with a run in progress or waiting. */
  get size(): number {
    return new Set([...this.running.keys(), ...this.waiting.keys()]).size;
  }
}

function noop(): void {
  // The next run starts whether the one ahead succeeded or failed.
}
