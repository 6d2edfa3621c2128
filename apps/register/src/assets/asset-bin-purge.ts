import { SYSTEM_ACTOR } from '@custodian/contracts';
import { ActivityLog, PeriodicJob } from '@custodian/persistence';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { RegisterConfig } from '../config/register-config';

const EVERY_MS = 60 * 60_000;
/** Assets purged per transaction; a run goes on until fewer are due. */
const BATCH = 1_000;

interface PurgedRow {
  id: string;
  workspace_id: string;
  name: string;
  asset_tag: string;
}

/**
 * The bin's retention (issue 31, item 8): an asset deleted more than BIN_RETENTION_DAYS ago
 * (30 by default; 0 keeps the bin for ever) is purged, for good, and the activity feed says
 * so (`purged`, by the system). No webhook fires: `asset.deleted` told receivers when it went
 * to the bin, and the spec has no purge event. Replicas take batches with SKIP LOCKED, so
 * they share the work; a restore racing a purge waits on the row and then finds it gone (404).
 *
 * `purge(now)` takes the time it compares with, so tests move a clock instead of waiting.
 */
@Injectable()
export class AssetBinPurge
  extends PeriodicJob<number>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    private readonly db: DataSource,
    private readonly activity: ActivityLog,
    @Inject(RegisterConfig) private readonly config: Pick<RegisterConfig, 'BIN_RETENTION_DAYS'>,
  ) {
    const logger = new Logger('AssetBinPurge');
    super(EVERY_MS, (message) => logger.warn(message), 0);
  }

  /** Purges what was deleted more than the retention before `now`; returns how many. */
  async purge(now: Date = new Date()): Promise<number> {
    const days = this.config.BIN_RETENTION_DAYS;
    if (days === 0) return 0;
    const before = new Date(now.getTime() - days * 86_400_000);
    let purged = 0;
    for (;;) {
      const batch = await this.db.transaction((tx) => this.purgeBatch(tx, before));
      purged += batch;
      if (batch < BATCH) return purged;
    }
  }

  protected work(): Promise<number> {
    return this.purge();
  }

  protected label(): string {
    return 'bin purge';
  }

  private async purgeBatch(tx: EntityManager, before: Date): Promise<number> {
    // A DELETE answers [rows, count] through TypeORM's Postgres driver.
    const [rows] = await tx.query<[PurgedRow[], number]>(
      `DELETE FROM register.deleted_assets
       WHERE id IN (
         SELECT id FROM register.deleted_assets WHERE deleted_at < $1
         ORDER BY deleted_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
       RETURNING id, workspace_id, name, asset_tag`,
      [before],
    );
    for (const row of rows) {
      await this.activity.record(tx, row.workspace_id, {
        source: 'system',
        actor: SYSTEM_ACTOR,
        recordType: 'asset',
        recordId: row.id,
        recordName: row.name,
        action: 'purged',
        changes: [],
      });
    }
    return rows.length;
  }
}
