/**
 * What the run has started and must stop, newest first: app processes before the services
 * they use, services before the temp directories they live in. Runs once, whether the run
 * ends normally, fails, or is interrupted (Ctrl-C, SIGTERM from a CI runner or Jest).
 */
export class Cleanup {
  private readonly steps: Array<{ name: string; run: () => Promise<void> }> = [];
  private running: Promise<void> | null = null;

  /** Registers a step; returns a function that drops it (the thing was already stopped). */
  add(name: string, run: () => Promise<void>): () => void {
    const step = { name, run };
    this.steps.push(step);
    return () => {
      const index = this.steps.indexOf(step);
      if (index >= 0) this.steps.splice(index, 1);
    };
  }

  /** Every registered step, newest first; a step that fails does not stop the others. */
  runAll(): Promise<void> {
    this.running ??= (async () => {
      while (this.steps.length > 0) {
        const step = this.steps.pop();
        if (!step) break;
        try {
          await step.run();
        } catch (error) {
          console.error(`cleanup: ${step.name} failed: ${(error as Error).message}`);
        }
      }
    })();
    return this.running;
  }
}
