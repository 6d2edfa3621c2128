import { RetentionJob, type RetentionRule } from '@custodian/persistence';
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
export class AppliedRequestPruner
  extends RetentionJob
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(db: DataSource) {
    const logger = new Logger('AppliedRequestPruner');
    super(db, EVERY_MS, (message) => logger.warn(message));
  }

  protected rule(): RetentionRule {
    return { table: 'register.applied_requests', where: 'expires_at <= now()', parameters: [] };
  }
}
