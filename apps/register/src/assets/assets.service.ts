import { OutboxWriter } from '@custodian/messaging';
import {
  DomainError,
  type AssetDetail,
  type AssetListQuery,
  type AssetSummary,
  type CallerContext,
  type CreateAssetInput,
  type ListReply,
  type UpdateAssetInput,
} from '@custodian/contracts';
import { limitReachedMessage, wouldExceed } from '@custodian/plans';
import { ASSET_LIST, DETAIL_COLUMNS, DETAIL_FROM, ListCache } from '@custodian/register-sql';
import { isUniqueViolation, newId } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import type { EntityManager } from 'typeorm';
import { answerList, bytesFormat } from '../listing/list-page';
import { SharedRuns } from '../listing/shared-runs';
import { toDetail, toSummary, type AssetDetailRow, type AssetSummaryRow } from './asset-rows';
import { checkoutTarget, type Holder } from './custody';
import { applyCustomFields, customFieldDefinitions } from './custom-field-values';
import { UpdateSet } from '../sql/update-set';
import { resolveOptionalRef } from './named-refs';
import { lockWorkspaceCounters } from '../counters/workspace-counters';

const TAG_CONSTRAINT = 'assets_workspace_tag';
const BYTES_FORMAT = bytesFormat(ASSET_LIST.columns, toSummary);

@Injectable()
export class AssetsService {
  private readonly unpaged = new SharedRuns<ListReply<AssetSummary>>();

  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly outbox: OutboxWriter,
    private readonly lists: ListCache = new ListCache(),
  ) {}

  /**
   * `known`: the tag of the bare array's bytes the caller holds (the gateway's copy); while
   * they are still current the answer is ListUnchanged, one primary-key read instead of the
   * list.
   */
  list(
    caller: CallerContext,
    query: AssetListQuery,
    known?: string,
  ): Promise<ListReply<AssetSummary>> {
    return answerList(
      { reads: this.reads, unpaged: this.unpaged, cache: this.lists },
      {
        ...ASSET_LIST,
        workspaceId: caller.workspaceId,
        query,
        map: (row: AssetSummaryRow) => toSummary(row),
        format: BYTES_FORMAT,
      },
      known,
    );
  }

  async get(caller: CallerContext, id: string): Promise<AssetDetail> {
    return toDetail(await this.reads.run((db) => this.findRow(db, caller.workspaceId, id)));
  }

  async create(caller: CallerContext, input: CreateAssetInput): Promise<AssetDetail> {
    try {
      return await this.writes.run(caller.workspaceId, async (tx) => {
        const customFields = applyCustomFields(
          await customFieldDefinitions(tx, caller.workspaceId),
          {},
          input.custom_fields ?? {},
        );
        const holder = input.assigned_to_id
          ? await checkoutTarget(tx, caller.workspaceId, input.assigned_to_id)
          : null;
        const dueAt = dueDate(input.due_at, holder !== null);
        const counter = await lockWorkspaceCounters(tx, caller.workspaceId);
        if (wouldExceed(caller.limits.assets, counter.asset_count)) {
          throw new DomainError(
            'limit_reached',
            limitReachedMessage('assets', caller.limits.assets ?? 0, caller.plan),
          );
        }
        let tagSeq = Number(counter.asset_tag_seq);
        let assetTag = input.asset_tag?.trim();
        if (assetTag) {
          await assertTagFree(tx, caller.workspaceId, assetTag);
        } else {
          do {
            tagSeq += 1;
            assetTag = `AT-${String(tagSeq).padStart(6, '0')}`;
          } while (await tagTaken(tx, caller.workspaceId, assetTag));
        }
        const id = newId('ast');
        await tx.query(
          `INSERT INTO register.assets (id, workspace_id, name, sku, status, brand, model,
             serial_number, asset_tag, category_id, location_id, custom_fields, assigned_to_id,
             assigned_at, custody_due_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
             CASE WHEN $13::text IS NULL THEN NULL ELSE now() END, $14)`,
          [
            id,
            caller.workspaceId,
            input.name.trim(),
            input.sku ?? null,
            input.status ?? 'active',
            input.brand ?? null,
            input.model ?? null,
            input.serial_number ?? null,
            assetTag,
            await resolveOptionalRef(tx, 'categories', caller.workspaceId, input.category),
            await resolveOptionalRef(tx, 'locations', caller.workspaceId, input.location),
            JSON.stringify(customFields),
            holder?.id ?? null,
            dueAt,
          ],
        );
        await tx.query(
          `UPDATE register.workspace_counters
             SET asset_count = asset_count + 1, asset_tag_seq = $2 WHERE workspace_id = $1`,
          [caller.workspaceId, tagSeq],
        );
        const asset = toDetail(await this.findRow(tx, caller.workspaceId, id));
        await this.outbox.write(tx, caller.workspaceId, 'asset.created', asset);
        if (holder)
          await writeCustodyEvent(
            this.outbox,
            tx,
            caller.workspaceId,
            'assignment.checked_out',
            asset,
            holder,
          );
        if (caller.limits.assets !== null && counter.asset_count + 1 === caller.limits.assets) {
          // This create used the last slot: one event per crossing, in the same transaction.
          await this.outbox.write(tx, caller.workspaceId, 'plan.limit_reached', {
            workspace: { id: caller.workspaceId },
            plan: caller.plan,
            limit: 'assets',
            value: caller.limits.assets,
          });
        }
        return asset;
      });
    } catch (error) {
      throw translateTagConflict(error, input.asset_tag);
    }
  }

  async update(caller: CallerContext, id: string, input: UpdateAssetInput): Promise<AssetDetail> {
    try {
      return await this.writes.run(caller.workspaceId, async (tx) => {
        const current = await this.findRow(tx, caller.workspaceId, id, true);
        const update = new UpdateSet(current.id, caller.workspaceId);
        const set = (column: string, value: unknown) => update.set(column, value);
        // Custody first: the asset row is locked (FOR UPDATE above), so concurrent PATCHes of one
        // asset check it out and in one after the other and every change has its event; and
        // people are locked before any category or location, the order PATCH /people uses.
        let custody: { out: Holder | null; in: Holder | null } = { out: null, in: null };
        if (input.assigned_to_id !== undefined && input.assigned_to_id !== current.assigned_to_id) {
          const previous = current.assigned_to_id
            ? { id: current.assigned_to_id, name: current.assigned_name ?? '' }
            : null;
          const next = input.assigned_to_id
            ? await checkoutTarget(tx, caller.workspaceId, input.assigned_to_id)
            : null;
          set('assigned_to_id', next?.id ?? null);
          update.raw(next ? 'assigned_at = now()' : 'assigned_at = NULL');
          custody = { in: previous, out: next };
          // A new check-out has the due date given with it, or none; a check-in has none.
          set('custody_due_at', dueDate(input.due_at, next !== null));
          update.raw('overdue_at = NULL');
        } else if (input.due_at !== undefined) {
          // The check-out in place gets a new due date (or none), which may fire again.
          const dueAt = dueDate(input.due_at, current.assigned_to_id !== null);
          if (current.assigned_to_id !== null) {
            set('custody_due_at', dueAt);
            update.raw('overdue_at = NULL');
          }
        }
        if (input.name !== undefined) set('name', input.name.trim());
        if (input.status !== undefined) set('status', input.status);
        for (const column of ['sku', 'brand', 'model', 'serial_number'] as const) {
          if (input[column] !== undefined) set(column, input[column]);
        }
        if (input.asset_tag !== undefined && input.asset_tag.trim() !== current.asset_tag) {
          // Under the counter lock, like creates, so a hand-set tag cannot race a generated one.
          await lockWorkspaceCounters(tx, caller.workspaceId);
          await assertTagFree(tx, caller.workspaceId, input.asset_tag.trim());
          set('asset_tag', input.asset_tag.trim());
        }
        if (input.category !== undefined) {
          set(
            'category_id',
            await resolveOptionalRef(tx, 'categories', caller.workspaceId, input.category),
          );
        }
        if (input.location !== undefined) {
          set(
            'location_id',
            await resolveOptionalRef(tx, 'locations', caller.workspaceId, input.location),
          );
        }
        if (input.custom_fields !== undefined) {
          const next = applyCustomFields(
            await customFieldDefinitions(tx, caller.workspaceId),
            current.custom_fields,
            input.custom_fields,
          );
          set('custom_fields', JSON.stringify(next));
        }
        if (update.empty) return toDetail(current);
        await tx.query(update.statement('register.assets'), update.params);
        const asset = toDetail(await this.findRow(tx, caller.workspaceId, current.id));
        await this.outbox.write(tx, caller.workspaceId, 'asset.updated', asset);
        if (custody.in) {
          await writeCustodyEvent(
            this.outbox,
            tx,
            caller.workspaceId,
            'assignment.checked_in',
            asset,
            custody.in,
          );
        }
        if (custody.out) {
          await writeCustodyEvent(
            this.outbox,
            tx,
            caller.workspaceId,
            'assignment.checked_out',
            asset,
            custody.out,
          );
        }
        return asset;
      });
    } catch (error) {
      throw translateTagConflict(error, input.asset_tag);
    }
  }

  /**
   * The one way an asset is looked up by id: always within the caller's workspace, and the
   * same 404 whether the id is unknown or belongs to another workspace.
   */
  private async findRow(
    manager: EntityManager,
    workspaceId: string,
    id: string,
    forUpdate = false,
  ): Promise<AssetDetailRow> {
    if (id.length > 64 || id.includes('\u0000')) {
      throw new DomainError('not_found', `Asset ${id} not found`);
    }
    if (forUpdate) {
      // The lock first, in a statement of its own: after waiting for a concurrent PATCH, a
      // locking SELECT rechecks only the locked row and would keep the joined rows of its older
      // snapshot (the previous holder's name, empty when there was none). The read below sees
      // the committed state.
      await manager.query(
        `SELECT 1 FROM register.assets WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
        [id, workspaceId],
      );
    }
    const rows = await manager.query<AssetDetailRow[]>(
      `SELECT ${DETAIL_COLUMNS} FROM ${DETAIL_FROM} WHERE a.id = $1 AND a.workspace_id = $2`,
      [id, workspaceId],
    );
    const row = rows[0];
    if (!row) throw new DomainError('not_found', `Asset ${id} not found`);
    return row;
  }
}

async function tagTaken(
  tx: EntityManager,
  workspaceId: string,
  tag: string,
): Promise<string | null> {
  const rows = await tx.query<Array<{ id: string }>>(
    `SELECT id FROM register.assets WHERE workspace_id = $1 AND asset_tag = $2`,
    [workspaceId, tag],
  );
  return rows[0]?.id ?? null;
}

async function assertTagFree(tx: EntityManager, workspaceId: string, tag: string): Promise<void> {
  const holder = await tagTaken(tx, workspaceId, tag);
  if (holder) throw tagConflict(tag);
}

function tagConflict(tag: string): DomainError {
  return new DomainError('conflict', `asset_tag ${tag} is already used by another asset`);
}

/** Two concurrent writes of one tag both pass the check; the unique index decides. */
function translateTagConflict(error: unknown, tag: string | undefined): unknown {
  if (isUniqueViolation(error, TAG_CONSTRAINT)) return tagConflict(tag?.trim() ?? 'given');
  return error;
}

/** Check-out and check-in events carry the asset as fetched and the person concerned. */
async function writeCustodyEvent(
  outbox: OutboxWriter,
  tx: EntityManager,
  workspaceId: string,
  event: 'assignment.checked_out' | 'assignment.checked_in',
  asset: AssetDetail,
  person: Holder,
): Promise<void> {
  await outbox.write(tx, workspaceId, event, {
    asset,
    person,
    at: asset.updated_at,
  });
}

/**
 * A check-out's due date as given (`due_at`), checked: only for an asset that is checked out
 * after the write, and in the future. Undefined or null: no due date.
 */
function dueDate(dueAt: string | null | undefined, checkedOut: boolean): Date | null {
  if (dueAt === undefined || dueAt === null) return null;
  if (!checkedOut) {
    throw new DomainError(
      'invalid_input',
      'due_at needs a check-out: give assigned_to_id with it, or set it on an asset checked out',
    );
  }
  const at = new Date(dueAt);
  if (!(at.getTime() > Date.now())) {
    throw new DomainError('invalid_input', `due_at ${dueAt} is not in the future`);
  }
  return at;
}
