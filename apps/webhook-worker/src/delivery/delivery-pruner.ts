import { RetentionJob, deleteRule, type RetentionRule } from '@custodian/persistence';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WorkerConfig } from '../config/worker-config';
import { dropExpiredSecrets } from '../webhooks/endpoint.store';
import { ORPHAN_PAYLOADS, deliveryRetention } from './delivery.store';

const EVERY_MS = 10 * 60_000;

/**
 * The delivery log's retention: every 10 minutes, finished deliveries (and, by cascade, their
 * attempts) older than DELIVERY_RETENTION_DAYS are deleted in batches. Pending deliveries are
 * never touched. The same round deletes the event payloads no delivery references any more,
 * and drops the previous signing secrets whose overlap has ended (nothing reads them past it;
 * kept, they would only be one more copy of a secret).
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
    await deleteRule(this.dataSource, ORPHAN_PAYLOADS).catch((error: Error) =>
      this.logger.warn(`pruning event payloads deferred: ${error.message}`),
    );
    await dropExpiredSecrets(this.dataSource).catch((error: Error) =>
      this.logger.warn(`dropping expired signing secrets deferred: ${error.message}`),
    );
    return deleted;
  }

  protected rule(): RetentionRule {
    return deliveryRetention(this.config.DELIVERY_RETENTION_DAYS);
  }
}
