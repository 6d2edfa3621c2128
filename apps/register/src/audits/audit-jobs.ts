import { callerActivity, type AssetStatus, type CallerContext } from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog, SteppedJob, queryRows } from '@custodian/persistence';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AssetsService } from '../assets/assets.service';
import { RegisterConfig } from '../config/register-config';
import { subtreeIds } from '../locations/location-tree';
import {
  claimAuditJob,
  findAuditRow,
  insertExpected,
  settleItems,
  toAudit,
  unsettledItems,
  type AuditRow,
  type ItemRow,
} from './audit.store';

export type AuditJobsConfig = Pick<
  RegisterConfig,
  | 'AUDIT_BATCH_SIZE'
  | 'AUDIT_WRITE_BATCH_SIZE'
  | 'AUDIT_JOBS_POLL_MS'
  | 'AUDIT_JOB_STATEMENT_TIMEOUT_MS'
>;

/** What one step of the jobs did. */
export type AuditStep = 'started' | 'batch' | 'completed' | 'idle';

/**
 * The audits' background work: fixing an audit's expected set (`starting` → `open`,
 * `audit.started`) and completing it (`completing` → `completed`: `audit.item_missing` per
 * missing asset, the moves and `lost` statuses asked for, then `audit.completed`).
 *
 * A step claims one audit with work (FOR UPDATE SKIP LOCKED: another replica takes another,
 * or waits for the next poll) and commits what it did with the audit's progress: a start is
 * one step; a completion settles AUDIT_BATCH_SIZE items per step (AUDIT_WRITE_BATCH_SIZE when
 * it moves assets or marks them lost: those writes hold the workspace's counters row until the
 * step commits). An item is marked settled in the transaction that writes its event, so a
 * step that crashes is rolled back whole and the next one does it again: nothing twice.
 *
 * The services kick the jobs right after the commit of a start or a completion; the poll
 * (AUDIT_JOBS_POLL_MS) picks up what a crashed or restarted replica left.
 */
@Injectable()
export class AuditJobs
  extends SteppedJob<Exclude<AuditStep, 'idle'>>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    private readonly db: DataSource,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
    private readonly assets: AssetsService,
    @Inject(RegisterConfig) private readonly config: AuditJobsConfig,
  ) {
    const logger = new Logger('AuditJobs');
    super(config.AUDIT_JOBS_POLL_MS, (message) => logger.warn(message), 0);
  }

  /** One step: one audit started, or one batch of one completion. */
  step(): Promise<AuditStep> {
    return this.db.transaction(async (tx) => {
      // Not the pool's request-sized bound: a start is one statement over the whole scope.
      await tx.query(`SELECT set_config('statement_timeout', $1, true)`, [
        String(this.config.AUDIT_JOB_STATEMENT_TIMEOUT_MS),
      ]);
      const audit = await claimAuditJob(tx);
      if (!audit) return 'idle';
      if (audit.status === 'starting') {
        await this.start(tx, audit);
        return 'started';
      }
      return this.completeBatch(tx, audit);
    });
  }

  protected label(): string {
    return 'Audit jobs';
  }

  private async start(tx: EntityManager, audit: AuditRow): Promise<void> {
    const expected = await insertExpected(tx, audit);
    await tx.query(
      `UPDATE register.audits SET status = 'open', expected = $2, started_at = now(),
         updated_at = now(), progress_done = NULL, progress_total = NULL WHERE id = $1`,
      [audit.id, expected],
    );
    const opened = toAudit(await findAuditRow(tx, audit.workspace_id, audit.id));
    await this.outbox.write(tx, audit.workspace_id, 'audit.started', opened);
    await this.record(tx, audit, audit.created_by, 'started');
  }

  private async completeBatch(tx: EntityManager, audit: AuditRow): Promise<AuditStep> {
    const writes = audit.move_found === true || audit.mark_missing_lost === true;
    const limit = writes
      ? Math.min(this.config.AUDIT_BATCH_SIZE, this.config.AUDIT_WRITE_BATCH_SIZE)
      : this.config.AUDIT_BATCH_SIZE;
    const items = await unsettledItems(tx, audit.id, limit);
    if (items.length > 0) {
      await this.settle(tx, audit, items);
      await settleItems(
        tx,
        audit.id,
        items.map((item) => item.asset_id),
      );
      await tx.query(
        `UPDATE register.audits SET progress_done = coalesce(progress_done, 0) + $2,
           updated_at = now() WHERE id = $1`,
        [audit.id, items.length],
      );
    }
    if (items.length === limit) return 'batch';
    await tx.query(
      `UPDATE register.audits SET status = 'completed', completed_at = now(), updated_at = now()
        WHERE id = $1`,
      [audit.id],
    );
    const completed = toAudit(await findAuditRow(tx, audit.workspace_id, audit.id));
    await this.outbox.write(tx, audit.workspace_id, 'audit.completed', completed);
    await this.record(tx, audit, audit.completed_by ?? audit.created_by, 'completed');
    return 'completed';
  }

  /** The events and writes a batch of expected items calls for. */
  private async settle(tx: EntityManager, audit: AuditRow, items: ItemRow[]): Promise<void> {
    const workspaceId = audit.workspace_id;
    const ids = items.map((item) => item.asset_id);
    const current = new Map(
      (
        await queryRows<{
          id: string;
          name: string;
          asset_tag: string;
          status: AssetStatus;
          location_id: string | null;
        }>(
          tx,
          `SELECT id, name, asset_tag, status, location_id FROM register.assets
            WHERE workspace_id = $1 AND id = ANY($2::text[])`,
          [workspaceId, ids],
        )
      ).map((row) => [row.id, row]),
    );
    const caller = (audit.completed_by ?? audit.created_by) as unknown as CallerContext;
    const origin = { id: audit.id, name: audit.name };
    const audited =
      audit.move_found === true && audit.location_id !== null
        ? new Set(await subtreeIds(tx, workspaceId, audit.location_id))
        : new Set<string>();
    for (const item of items) {
      const asset = current.get(item.asset_id);
      if (item.state === 'missing') {
        await this.outbox.write(tx, workspaceId, 'audit.item_missing', {
          audit: origin,
          asset: asset
            ? { id: asset.id, name: asset.name, asset_tag: asset.asset_tag }
            : { id: item.asset_id, name: item.asset_name, asset_tag: item.asset_tag },
          expected_location:
            item.expected_location_id !== null && item.expected_location_name !== null
              ? { id: item.expected_location_id, name: item.expected_location_name }
              : null,
        });
        if (audit.mark_missing_lost === true && asset && asset.status !== 'lost') {
          await this.assets.updateIn(tx, caller, asset.id, { status: 'lost' }, origin);
        }
      } else if (
        audit.move_found === true &&
        asset &&
        item.scan_location_id !== null &&
        // The place it was scanned at still exists (an empty place may be deleted meanwhile).
        item.scan_location_name !== null
      ) {
        // Moved: a misplaced one; or one that is elsewhere than where it was scanned and
        // outside the audited place (an asset already under it stays in its room).
        const target = item.scan_location_id;
        const move =
          asset.location_id !== target &&
          (item.state === 'misplaced' ||
            asset.location_id === null ||
            !audited.has(asset.location_id));
        if (move) await this.assets.updateIn(tx, caller, asset.id, { location_id: target }, origin);
      }
    }
  }

  private record(
    tx: EntityManager,
    audit: AuditRow,
    by: Record<string, unknown>,
    action: 'started' | 'completed',
  ): Promise<void> {
    return this.activity.record(tx, audit.workspace_id, {
      ...callerActivity(by as unknown as CallerContext),
      recordType: 'audit',
      recordId: audit.id,
      recordName: audit.name,
      action,
    });
  }
}
