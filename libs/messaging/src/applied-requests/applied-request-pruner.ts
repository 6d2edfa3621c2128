import { RetentionJob, type RetentionRule } from '@custodian/persistence';
import {
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { appliedRequestsRetention } from './applied-requests.table';

const EVERY_MS = 10 * 60_000;

/**
 * Every 10 minutes, deletes an app's records of applied requests whose window has passed (24 h
 * for an Idempotency-Key, 10 minutes otherwise), in batches along their expiry index. A
 * provider of each app that applies writes once: `new AppliedRequestPruner(db, 'register')`.
 */
export class AppliedRequestPruner
  extends RetentionJob
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    db: DataSource,
    private readonly schema: string,
  ) {
    const logger = new Logger('AppliedRequestPruner');
    super(db, EVERY_MS, (message) => logger.warn(message));
  }

  protected rule(): RetentionRule {
    return appliedRequestsRetention(this.schema);
  }
}
