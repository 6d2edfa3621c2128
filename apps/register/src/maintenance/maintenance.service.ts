import {
  DomainError,
  MAINTENANCE_PAGE_SIZE_DEFAULT,
  MAINTENANCE_PAGE_SIZE_MAX,
  callerActivity,
  type ActivityChange,
  type AssetStatus,
  type CallerContext,
  type CreateMaintenanceInput,
  type Maintenance,
  type MaintenanceListQuery,
  type Page,
  type ResolveMaintenanceInput,
  type UpdateMaintenanceInput,
  type ReminderRepeat,
} from '@custodian/contracts';
import { OutboxWriter, assertIfMatch } from '@custodian/messaging';
import {
  ActivityLog,
  changedFields,
  newId,
  queryRows,
  type Queryable,
} from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { assetNotFound } from '../assets/asset.store';
import { AssetsService } from '../assets/assets.service';
import { pageParams } from '../listing/page-params';
import { occurrenceAt } from '../reminders/occurrences';
import { RemindersService } from '../reminders/reminders.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import {
  assetBinned,
  findMaintenanceRow,
  heldStatusOf,
  insertMaintenance,
  lockAssetStatus,
  maintenancePage,
  resolveMaintenance,
  toMaintenance,
  updateMaintenance,
  type MaintenanceWrite,
} from './maintenance.store';

/**
 * Maintenance records of assets. Logging one may put the asset in status `maintenance`
 * (`set_asset_status`), in the same transaction and exactly as PATCH /assets/{id} would
 * (AssetsService.updateIn: `asset.updated`, its feed entry); the record remembers the status
 * it took the asset from. Resolving it (once: again is a 409) puts that status back when the
 * asset is still in `maintenance` and no other open record holds it there. The asset's row is
 * locked before the records are read, so two records of one asset never both restore or both
 * take the status.
 *
 * The asset in the bin: a new record is a 404 (the asset is not found, as everywhere), the
 * records it has stay readable and changeable, and resolving one is a 409 (restore the asset
 * first, so its status comes back with the record).
 */
@Injectable()
export class MaintenanceService {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
    private readonly assets: AssetsService,
    private readonly reminders: RemindersService,
  ) {}

  get(caller: CallerContext, id: string): Promise<Maintenance> {
    return this.reads.run(async (db) =>
      toMaintenance(await findMaintenanceRow(db, caller.workspaceId, id)),
    );
  }

  list(caller: CallerContext, query: MaintenanceListQuery): Promise<Page<Maintenance>> {
    return this.reads.heavy((db) => this.page(db, caller, query, query.asset_id));
  }

  /** GET /assets/{id}/maintenance: a 404 when the asset is not in the register. */
  listOfAsset(
    caller: CallerContext,
    assetId: string,
    query: MaintenanceListQuery,
  ): Promise<Page<Maintenance>> {
    // No id of the register is longer, nor holds a NUL (which Postgres refuses in text).
    if (assetId.length > 64 || assetId.includes('\u0000')) {
      return Promise.reject(assetNotFound(assetId));
    }
    return this.reads.heavy(async (db) => {
      const rows = await queryRows<{ id: string }>(
        db,
        `SELECT id FROM register.assets WHERE id = $1 AND workspace_id = $2`,
        [assetId, caller.workspaceId],
      );
      if (rows.length === 0) throw assetNotFound(assetId);
      return this.page(db, caller, query, assetId);
    });
  }

  create(
    caller: CallerContext,
    assetId: string,
    input: CreateMaintenanceInput,
  ): Promise<Maintenance> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const asset = await lockAssetStatus(tx, workspaceId, assetId);
      if (!asset) throw assetNotFound(assetId);
      let statusBefore: AssetStatus | null = null;
      let takeStatus = false;
      if (input.set_asset_status === true) {
        if (asset.status !== 'maintenance') {
          statusBefore = asset.status;
          takeStatus = true;
        } else {
          // Already there: held by another open record (this one shares its status to go
          // back to), or put there by hand (this record did not change it).
          statusBefore =
            ((await heldStatusOf(tx, workspaceId, asset.id, null)) as AssetStatus | undefined) ??
            null;
        }
      }
      const id = newId('mnt');
      await insertMaintenance(tx, {
        id,
        workspace_id: workspaceId,
        asset_id: asset.id,
        title: input.title.trim(),
        type: input.type,
        notes: input.notes ?? null,
        scheduled_for: input.scheduled_for ?? null,
        cost: input.cost ?? null,
        asset_status_before: statusBefore,
        created_by: caller.keyId,
      });
      if (takeStatus) await this.assets.updateIn(tx, caller, asset.id, { status: 'maintenance' });
      if (input.repeat) {
        const reminder = await this.reminders.createIn(tx, caller, {
          title: input.title.trim(),
          due_at: firstRepeat(input.scheduled_for ?? null, input.repeat).toISOString(),
          repeat: input.repeat,
          asset_id: asset.id,
        });
        await tx.query(`UPDATE register.maintenance SET reminder_id = $2 WHERE id = $1`, [
          id,
          reminder.id,
        ]);
      }
      const record = toMaintenance(await findMaintenanceRow(tx, workspaceId, id));
      await this.outbox.write(tx, workspaceId, 'maintenance.created', record);
      await this.record(tx, caller, record, 'created', maintenanceChanges(null, record));
      return record;
    });
  }

  /** `ifMatch`: the client's If-Match, checked against the record under its row lock. */
  update(
    caller: CallerContext,
    id: string,
    input: UpdateMaintenanceInput,
    ifMatch?: readonly string[],
  ): Promise<Maintenance> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const before = toMaintenance(
        await findMaintenanceRow(tx, workspaceId, id, { forUpdate: true }),
      );
      assertIfMatch(ifMatch, before, `Maintenance ${id}`);
      const columns: MaintenanceWrite = {};
      if (input.title !== undefined) columns.title = input.title.trim();
      if (input.type !== undefined) columns.type = input.type;
      if (input.notes !== undefined) columns.notes = input.notes;
      if (input.scheduled_for !== undefined) columns.scheduled_for = input.scheduled_for;
      if (input.cost !== undefined) columns.cost = input.cost;
      await updateMaintenance(tx, id, columns);
      const record = toMaintenance(await findMaintenanceRow(tx, workspaceId, id));
      const changes = maintenanceChanges(before, record);
      // A write of the values already there is no change.
      if (changes.length === 0) return before;
      await this.record(tx, caller, record, 'updated', changes);
      return record;
    });
  }

  resolve(caller: CallerContext, id: string, input: ResolveMaintenanceInput): Promise<Maintenance> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const current = await findMaintenanceRow(tx, workspaceId, id, { forUpdate: true });
      if (current.status === 'resolved') {
        throw new DomainError(
          'conflict',
          `Maintenance record ${current.title} (${id}) was already resolved at ` +
            `${current.resolved_at?.toISOString() ?? '?'}`,
        );
      }
      // The asset next (every record of it waits here), then the other records it has.
      const asset = await lockAssetStatus(tx, workspaceId, current.asset_id);
      if (!asset) {
        const binned = await assetBinned(tx, workspaceId, current.asset_id);
        if (binned) {
          throw new DomainError(
            'conflict',
            `Asset ${binned.name} (${current.asset_id}) is in the bin; restore it before ` +
              `resolving maintenance record ${id}`,
          );
        }
      }
      const before = toMaintenance(current);
      await resolveMaintenance(tx, id, {
        resolution_notes: input.notes ?? null,
        ...(input.cost !== undefined ? { cost: input.cost } : {}),
      });
      const back = current.asset_status_before as AssetStatus | null;
      if (
        asset &&
        back !== null &&
        asset.status === 'maintenance' &&
        (await heldStatusOf(tx, workspaceId, asset.id, id)) === undefined
      ) {
        await this.assets.updateIn(tx, caller, asset.id, { status: back });
      }
      const record = toMaintenance(await findMaintenanceRow(tx, workspaceId, id));
      await this.outbox.write(tx, workspaceId, 'maintenance.resolved', record);
      await this.record(tx, caller, record, 'resolved', maintenanceChanges(before, record));
      return record;
    });
  }

  private async page(
    db: Queryable,
    caller: CallerContext,
    query: MaintenanceListQuery,
    assetId: string | undefined,
  ): Promise<Page<Maintenance>> {
    const { page, pageSize } = pageParams(
      query,
      MAINTENANCE_PAGE_SIZE_DEFAULT,
      MAINTENANCE_PAGE_SIZE_MAX,
    );
    // An asset id with a NUL (which Postgres refuses in text) names no asset: nothing listed.
    if (assetId?.includes('\u0000')) return { data: [], page, pageSize, total: 0 };
    const { rows, total } = await maintenancePage(
      db,
      {
        workspaceId: caller.workspaceId,
        ...(query.status ? { status: query.status } : {}),
        ...(assetId ? { assetId } : {}),
      },
      page,
      pageSize,
    );
    return { data: rows.map(toMaintenance), page, pageSize, total };
  }

  private record(
    tx: EntityManager,
    caller: CallerContext,
    record: Maintenance,
    action: 'created' | 'updated' | 'resolved',
    changes: ActivityChange[],
  ): Promise<void> {
    return this.activity.record(tx, caller.workspaceId, {
      ...callerActivity(caller),
      recordType: 'maintenance',
      recordId: record.id,
      recordName: record.title,
      action,
      relatedId: record.asset.id,
      relatedName: record.asset.name,
      changes,
    });
  }
}

function maintenanceChanges(before: Maintenance | null, after: Maintenance): ActivityChange[] {
  return changedFields(before, after, {
    title: (record) => record.title,
    type: (record) => record.type,
    notes: (record) => record.notes,
    scheduled_for: (record) => record.scheduled_for,
    cost: (record) => record.cost,
    status: (record) => record.status,
    resolution_notes: (record) => record.resolution_notes,
  });
}

/**
 * The first occurrence of a maintenance record's repeating reminder: one interval after the
 * day the work is planned for (09:00 UTC), or after now; the first still ahead when that day
 * is long past (a record logged late does not fire a backlog).
 */
export function firstRepeat(
  scheduledFor: string | null,
  repeat: ReminderRepeat,
  now: Date = new Date(),
): Date {
  const anchor = scheduledFor ? new Date(`${scheduledFor}T09:00:00.000Z`) : now;
  let index = 1;
  while (occurrenceAt(anchor, repeat, index).getTime() <= now.getTime()) index += 1;
  return occurrenceAt(anchor, repeat, index);
}
