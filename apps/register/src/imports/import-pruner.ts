import { RetentionJob, type RetentionRule } from '@custodian/persistence';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RegisterConfig } from '../config/register-config';

const EVERY_MS = 60 * 60_000;

/**
 * Every hour: imports finished (completed, cancelled, failed) more than IMPORT_RETENTION_DAYS
 * ago go with their rows (a 100,000-row file is 100,000 rows of register.import_rows); and an
 * upload left `uploading` for a day (its gateway went away mid-file) goes too. What the rows
 * created or changed stays, with their feed entries.
 */
@Injectable()
export class ImportPruner
  extends RetentionJob
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    db: DataSource,
    @Inject(RegisterConfig) private readonly config: Pick<RegisterConfig, 'IMPORT_RETENTION_DAYS'>,
  ) {
    const logger = new Logger('ImportPruner');
    super(db, EVERY_MS, (message) => logger.warn(message));
  }

  protected rule(): RetentionRule {
    return {
      table: 'register.imports',
      where: `(finished_at IS NOT NULL AND finished_at < now() - $1 * interval '1 day')
        OR (status = 'uploading' AND updated_at < now() - interval '1 day')`,
      parameters: [this.config.IMPORT_RETENTION_DAYS],
    };
  }
}
