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
 * never touched. The same round drops the previous signing secrets whose overlap has ended
 * (nothing reads them past it; kept, they would only be one more copy of a secret).
 */
@Injectable()
export class DeliveryPruner
  extends RetentionJob
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('DeliveryPruner');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
  ) {
    const logger = new Logger('DeliveryPruner');
    super(dataSource, EVERY_MS, (message) => logger.warn(message));
  }

  override async prune(): Promise<number> {
    const deleted = await super.prune();
    await this.dataSource
      .query(
        `UPDATE delivery.endpoints
         SET previous_secret = NULL, previous_secret_expires_at = NULL
         WHERE previous_secret_expires_at <= now()`,
      )
      .catch((error: Error) =>
        this.logger.warn(`dropping expired signing secrets deferred: ${error.message}`),
      );
    return deleted;
  }

  protected rule(): RetentionRule {
    return {
      table: 'delivery.deliveries',
      where: `status <> 'pending' AND created_at < now() - make_interval(days => $1)`,
      parameters: [this.config.DELIVERY_RETENTION_DAYS],
    };
  }
}
