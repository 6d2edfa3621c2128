import { deleteInBatches } from '@custodian/persistence';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WorkerConfig } from '../config/worker-config';

const EVERY_MS = 10 * 60_000;

/**
 * The delivery log's retention: every 10 minutes, finished deliveries (and, by cascade, their
 * attempts) older than DELIVERY_RETENTION_DAYS are deleted in batches (deleteInBatches), so
 * no transaction runs long. Pending deliveries are never touched. Replicas pruning at the same
 * time only find less to do.
 */
@Injectable()
export class DeliveryPruner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryPruner');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: DataSource,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.prune(), EVERY_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Deletes what is past the retention; returns how many deliveries went. */
  prune(): Promise<number> {
    this.running ??= this.pruneAll().finally(() => (this.running = null));
    return this.running;
  }

  private async pruneAll(): Promise<number> {
    try {
      return await deleteInBatches(
        this.db,
        'delivery.deliveries',
        `status <> 'pending' AND created_at < now() - make_interval(days => $1)`,
        [this.config.DELIVERY_RETENTION_DAYS],
      );
    } catch (error) {
      this.logger.warn(`delivery log pruning deferred: ${(error as Error).message}`);
      return 0;
    }
  }
}
