import { deleteInBatches } from '@custodian/persistence';
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';

const EVERY_MS = 10 * 60_000;

/**
 * Every 10 minutes, deletes the records of applied requests whose window has passed (24 h
 * for an Idempotency-Key, 10 minutes otherwise), in batches along their expiry index.
 */
@Injectable()
export class AppliedRequestPruner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AppliedRequestPruner');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private readonly db: DataSource) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.prune(), EVERY_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Deletes the expired records; returns how many went. */
  prune(): Promise<number> {
    this.running ??= deleteInBatches(
      this.db,
      'register.applied_requests',
      'expires_at <= now()',
      [],
    )
      .catch((error: Error) => {
        this.logger.warn(`applied requests pruning deferred: ${error.message}`);
        return 0;
      })
      .finally(() => (this.running = null));
    return this.running;
  }
}
