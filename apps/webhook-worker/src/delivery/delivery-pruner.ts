import { RetentionJob, type RetentionRule } from '@custodian/persistence';
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
 * attempts) older than DELIVERY_RETENTION_DAYS are deleted in batches. Pending deliveries are
 * never touched.
 */
@Injectable()
export class DeliveryPruner
  extends RetentionJob
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    db: DataSource,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
  ) {
    const logger = new Logger('DeliveryPruner');
    super(db, EVERY_MS, (message) => logger.warn(message));
  }

  protected rule(): RetentionRule {
    return {
      table: 'delivery.deliveries',
      where: `status <> 'pending' AND created_at < now() - make_interval(days => $1)`,
      parameters: [this.config.DELIVERY_RETENTION_DAYS],
    };
  }
}
