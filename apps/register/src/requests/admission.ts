/** Thrown by Admission.run when the work was not let in; nothing of it ran. */
export class AdmissionRefused extends Error {
  constructor(
    /**
     * `full`: the line was full on arrival; `slow`: at the pace works have run lately, its
     * turn would come after it stops waiting; `waited`: it waited, and no turn came in time.
     */
    readonly reason: 'full' | 'slow' | 'waited',
  ) {
    super(`admission refused: ${reason}`);
    this.name = 'AdmissionRefused';
  }
}

export interface AdmissionLimits {
  /** Works running at once. */
  concurrency: number;
  /** Works that may wait for a turn at most; one more is refused at once. */
  line: number;
}

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

/** Weight of the latest run in the moving average of run times. */
const LEARNING_RATE = 0.2;

/**
 * A semaphore with a line whose waiters wait only while their turn can come in time. A work
 * that finds every turn taken joins the line if the line has room and, at the pace works have
 * run lately (a moving average of their run times), its turn would come before `waitUntil`;
 * else it is refused at once. So a burst of quick works queues and is served, while works
 * that run long are refused as soon as waiting would be in vain. A waiter whose time runs out
 * anyway leaves the line at once, and the bound counts only callers still waiting; a freed
 * turn goes to the longest waiter.
 *
 * Written here rather than taken from a library: cockatiel's bulkhead and async-mutex's
 * `withTimeout` keep a waiter whose caller gave up in the queue until a turn reaches it, so
 * under sustained overload the line fills with callers already gone and refuses live ones;
 * p-limit and p-queue have no bound on waiters; none of them weighs the wait.
 */
export class Admission {
  private active = 0;
  private readonly waiters: Waiter[] = [];
  /** How long a work has run lately (ms); null until one has. */
  private typicalRunMs: number | null = null;

  constructor(private readonly limits: AdmissionLimits) {
    if (!(limits.concurrency >= 1) || !(limits.line >= 0)) {
      throw new Error(`invalid admission limits ${JSON.stringify(limits)}`);
    }
  }

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** The moving average of run times (ms), null before the first run. */
  get typicalRun(): number | null {
    return this.typicalRunMs;
  }

  /**
   * Runs `work` now if a turn is free, else after waiting in line until `waitUntil` (epoch
   * ms) at the latest. Throws AdmissionRefused, without running `work`, when the line is full,
   * when its turn would not come in time, or when the wait runs out.
   */
  async run<T>(waitUntil: number, work: () => Promise<T>): Promise<T> {
    await this.enter(waitUntil);
    const started = Date.now();
    try {
      return await work();
    } finally {
      this.learn(Date.now() - started);
      this.leave();
    }
  }

  private enter(waitUntil: number): Promise<void> {
    if (this.active < this.limits.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiters.length >= this.limits.line)
      return Promise.reject(new AdmissionRefused('full'));
    const patience = waitUntil - Date.now();
    if (patience <= 0 || this.expectedWaitMs() > patience) {
      return Promise.reject(new AdmissionRefused('slow'));
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.waiters.splice(at, 1);
          reject(new AdmissionRefused('waited'));
        }, patience),
      };
      this.waiters.push(waiter);
    });
  }

  /**
   * When one more waiter's turn would come: once the waiters ahead of it have had theirs and
   * one more work has ended, `concurrency` ending at a time.
   */
  private expectedWaitMs(): number {
    return ((this.waiters.length + 1) * (this.typicalRunMs ?? 0)) / this.limits.concurrency;
  }

  private learn(ms: number): void {
    this.typicalRunMs =
      this.typicalRunMs === null
        ? ms
        : this.typicalRunMs + LEARNING_RATE * (ms - this.typicalRunMs);
  }

  /** The turn passes straight to the next waiter, so nobody can slip in between. */
  private leave(): void {
    const next = this.waiters.shift();
    if (next) next.admit();
    else this.active--;
  }
}
