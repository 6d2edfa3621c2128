import { PeriodicJob } from '@custodian/persistence';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WorkerConfig } from '../config/worker-config';
import { pruneFeed } from './feed.store';

const EVERY_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

/**
 * The change feed's retention: every 10 minutes, events stored more than
 * EVENT_FEED_RETENTION_DAYS ago go, oldest first, each batch moving the horizon with it
 * (pruneFeed). Replicas pruning at once only find less to do.
 */
@Injectable()
export class FeedPruner
  extends PeriodicJob<number>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    private readonly db: DataSource,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
  ) {
    const logger = new Logger('FeedPruner');
    super(EVERY_MS, (message) => logger.warn(message), 0);
  }

  prune(): Promise<number> {
    return this.runOnce();
  }

  protected work(): Promise<number> {
    const cutoff = new Date(Date.now() - this.config.EVENT_FEED_RETENTION_DAYS * DAY_MS);
    return pruneFeed(this.db, cutoff);
  }

  protected label(): string {
    return 'pruning the change feed';
  }
}
