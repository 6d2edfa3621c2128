import { OutboxWriter, assertIfMatch } from '@custodian/messaging';
import {
  DomainError,
  callerActivity,
  type AssetDetail,
  type AssetListQuery,
  type AssetSummary,
  type CallerContext,
  type CreateAssetInput,
  type ListReply,
  type UpdateAssetInput,
} from '@custodian/contracts';
import { ListCache } from '@custodian/register-sql';
import { ActivityLog, newId } from '@custodian/persistence';
import { assetChanges } from '../activity/record-changes';
import { Injectable } from '@nestjs/common';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import type { EntityManager } from 'typeorm';
import { answerList, bytesFormat } from '../listing/list-page';
import { SharedRuns } from '../listing/shared-runs';
import { assertAssetSlot, noteLastAssetSlot } from './asset-slots';
import {
  ASSET_LIST,
  assertTagFree,
  findAssetRow,
  insertAsset,
  tagTaken,
  toDetail,
  toSummary,
  translateTagConflict,
  updateAsset,
  type AssetSummaryRow,
} from './asset.store';
import { checkoutTarget, refuseBookedCheckout, type Holder } from '../custody/custody.store';
import { customFieldDefinitions } from '../custom-fields/custom-field.store';
import { applyCustomFields } from './custom-field-values';
import { UpdateSet } from '../sql/update-set';
import { chooseCategory } from '../categories/category-choice';
import { chooseLocation } from '../locations/location-tree';
import { lockWorkspaceCounters } from '../counters/workspace-counters';
import { armOverdue } from './assignment-overdue';
import { armWarrantyExpiry } from './warranty-expiry';

const BYTES_FORMAT = bytesFormat(ASSET_LIST.columns, toSummary);

@Injectable()
export class AssetsService {
  private readonly unpaged = new SharedRuns<ListReply<AssetSummary>>();

  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
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
    return toDetail(await this.reads.run((db) => findAssetRow(db, caller.workspaceId, id)));
  }

  async create(caller: CallerContext, input: CreateAssetInput): Promise<AssetDetail> {
    try {
      return await this.writes.run(caller.workspaceId, (tx) => this.createIn(tx, caller, input));
    } catch (error) {
      throw translateTagConflict(error, input.asset_tag);
    }
  }

  /**
   * POST /assets inside a transaction someone else runs (an upsert by serial number or tag, a
   * CSV import's row): the same row, counters, events and feed entry. `origin`: the record
   * whose work this is (an import), named as the feed entry's related record.
   */
  async createIn(
    tx: EntityManager,
    caller: CallerContext,
    input: CreateAssetInput,
    origin?: { id: string; name: string },
  ): Promise<AssetDetail> {
    const customFields = applyCustomFields(
      await customFieldDefinitions(tx, caller.workspaceId),
      {},
      input.custom_fields ?? {},
    );
    const holder = input.assigned_to_id
      ? await checkoutTarget(tx, caller.workspaceId, input.assigned_to_id)
      : null;
    const dueAt = dueDate(input.due_at, holder !== null);
    const warranty = warrantyDates(input, { purchase_date: null, warranty_expires_on: null });
    const counter = await lockWorkspaceCounters(tx, caller.workspaceId);
    assertAssetSlot(caller, counter);
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
    await insertAsset(tx, {
      id,
      workspace_id: caller.workspaceId,
      name: input.name.trim(),
      sku: input.sku ?? null,
      status: input.status ?? 'active',
      brand: input.brand ?? null,
      model: input.model ?? null,
      serial_number: input.serial_number ?? null,
      asset_tag: assetTag,
      category_id: (await chooseCategory(tx, caller.workspaceId, input)) ?? null,
      location_id: (await chooseLocation(tx, caller.workspaceId, input)) ?? null,
      custom_fields: customFields,
      assigned_to_id: holder?.id ?? null,
      custody_due_at: dueAt,
      condition: input.condition ?? null,
      purchase_date: warranty.purchase_date,
      warranty_expires_on: warranty.warranty_expires_on,
    });
    // A new asset's notice is a new row: no claimed notice to wait for, so after the
    // counters' lock is fine here.
    if (dueAt) await armOverdue(tx, caller.workspaceId, id, dueAt);
    if (warranty.warranty_expires_on) {
      await armWarrantyExpiry(tx, caller.workspaceId, id, warranty.warranty_expires_on);
    }
    await tx.query(
      `UPDATE register.workspace_counters
         SET asset_count = asset_count + 1, asset_tag_seq = $2 WHERE workspace_id = $1`,
      [caller.workspaceId, tagSeq],
    );
    const asset = toDetail(await findAssetRow(tx, caller.workspaceId, id));
    await this.outbox.write(tx, caller.workspaceId, 'asset.created', asset);
    await this.activity.record(tx, caller.workspaceId, {
      ...callerActivity(caller),
      recordType: 'asset',
      recordId: asset.id,
      recordName: asset.name,
      action: 'created',
      relatedId: holder?.id ?? origin?.id ?? null,
      relatedName: holder?.name ?? origin?.name ?? null,
      changes: assetChanges(null, asset),
    });
    if (holder)
      await writeCustodyEvent(
        this.outbox,
        tx,
        caller.workspaceId,
        'assignment.checked_out',
        asset,
        holder,
      );
    await noteLastAssetSlot(this.outbox, tx, caller, counter.asset_count + 1);
    return asset;
  }

  /** `ifMatch`: the client's If-Match, checked against the asset under its row lock. */
  async update(
    caller: CallerContext,
    id: string,
    input: UpdateAssetInput,
    ifMatch?: readonly string[],
  ): Promise<AssetDetail> {
    try {
      return await this.writes.run(caller.workspaceId, (tx) =>
        this.updateIn(tx, caller, id, input, undefined, ifMatch),
      );
    } catch (error) {
      throw translateTagConflict(error, input.asset_tag);
    }
  }

  /**
   * PATCH /assets/{id} inside a transaction someone else runs: an approved request's check-out
   * (asset-requests/) writes the same row, events and feed entry a PATCH would, and rolls
   * back with the request when anything after it fails. `origin`: the record whose work this
   * is (an audit's completion), named as the feed entry's related record when no holder is.
   */
  async updateIn(
    tx: EntityManager,
    caller: CallerContext,
    id: string,
    input: UpdateAssetInput,
    origin?: { id: string; name: string },
    ifMatch?: readonly string[],
  ): Promise<AssetDetail> {
    const current = await findAssetRow(tx, caller.workspaceId, id, true);
    // Before any rule: a change meant for another version of the asset is not looked at.
    assertIfMatch(ifMatch, toDetail(current), `Asset ${id}`);
    const update = new UpdateSet(current.id, caller.workspaceId);
    const set = (column: string, value: unknown) => update.set(column, value);
    // Custody first: the asset row is locked (FOR UPDATE above), so concurrent PATCHes of one
    // asset check it out and in one after the other and every change has its event; and
    // people are locked before any category or location, the order PATCH /people uses.
    let custody: { out: Holder | null; in: Holder | null } = { out: null, in: null };
    // The check-out's due date when this write sets or clears it: its notice follows.
    let custodyDue: { at: Date | null } | null = null;
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
      custodyDue = { at: dueDate(input.due_at, next !== null) };
      set('custody_due_at', custodyDue.at);
      // Read by the previous version's sweep while a rollout runs both (ADR 0020).
      update.raw('overdue_at = NULL');
    } else if (input.due_at !== undefined) {
      // The check-out in place gets a new due date (or none), which may fire again.
      const dueAt = dueDate(input.due_at, current.assigned_to_id !== null);
      if (current.assigned_to_id !== null) {
        custodyDue = { at: dueAt };
        set('custody_due_at', dueAt);
        update.raw('overdue_at = NULL');
      }
    }
    // A check-out by hand, or a new due date, may not take the asset from a booking.
    if (custody.out || (custodyDue?.at && current.assigned_to_id !== null)) {
      await refuseBookedCheckout(tx, caller.workspaceId, current.id, custodyDue?.at ?? null);
    }
    // Its notice follows now, holding only the asset (and the people): the UPDATE below
    // takes the workspace's counters row (a trigger), which the due-date engine's handler
    // may be waiting for while it holds this notice (ADR 0020).
    if (custodyDue) await armOverdue(tx, caller.workspaceId, current.id, custodyDue.at);
    const warranty = warrantyDates(input, current);
    for (const column of ['purchase_date', 'warranty_expires_on'] as const) {
      if (warranty[column] !== current[column]) set(column, warranty[column]);
    }
    // A new date (or none) arms its notices again; the same date leaves them as they are.
    if (warranty.warranty_expires_on !== current.warranty_expires_on) {
      await armWarrantyExpiry(tx, caller.workspaceId, current.id, warranty.warranty_expires_on);
    }
    const condition =
      input.condition !== undefined && input.condition !== current.condition
        ? { from: current.condition, to: input.condition }
        : null;
    if (condition) set('condition', condition.to);
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
    const categoryId = await chooseCategory(tx, caller.workspaceId, input);
    if (categoryId !== undefined) set('category_id', categoryId);
    const locationId = await chooseLocation(tx, caller.workspaceId, input);
    if (locationId !== undefined) set('location_id', locationId);
    if (input.custom_fields !== undefined) {
      const next = applyCustomFields(
        await customFieldDefinitions(tx, caller.workspaceId),
        current.custom_fields,
        input.custom_fields,
      );
      set('custom_fields', JSON.stringify(next));
    }
    if (update.empty) return toDetail(current);
    await updateAsset(tx, update);
    const asset = toDetail(await findAssetRow(tx, caller.workspaceId, current.id));
    await this.outbox.write(tx, caller.workspaceId, 'asset.updated', asset);
    const holder = custody.out ?? custody.in ?? origin;
    const changes = assetChanges(toDetail(current), asset);
    // A write of the values already there is no change to record.
    if (changes.length > 0) {
      await this.activity.record(tx, caller.workspaceId, {
        ...callerActivity(caller),
        recordType: 'asset',
        recordId: asset.id,
        recordName: asset.name,
        action: custodyAction(custody) ?? 'updated',
        relatedId: holder?.id ?? null,
        relatedName: holder?.name ?? null,
        changes,
      });
    }
    if (condition) {
      await this.outbox.write(tx, caller.workspaceId, 'asset.condition_changed', {
        asset,
        ...condition,
        at: asset.updated_at,
      });
    }
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
  }
}

type WarrantyDates = { purchase_date: string | null; warranty_expires_on: string | null };

/**
 * The purchase and warranty dates after a write (`current` for what it leaves out). A warranty
 * that ends before the asset was bought is a typo, refused naming both.
 */
function warrantyDates(input: Partial<WarrantyDates>, current: WarrantyDates): WarrantyDates {
  const next = {
    purchase_date: input.purchase_date === undefined ? current.purchase_date : input.purchase_date,
    warranty_expires_on:
      input.warranty_expires_on === undefined
        ? current.warranty_expires_on
        : input.warranty_expires_on,
  };
  if (
    next.purchase_date !== null &&
    next.warranty_expires_on !== null &&
    next.warranty_expires_on < next.purchase_date
  ) {
    throw new DomainError(
      'invalid_input',
      `warranty_expires_on (${next.warranty_expires_on}) must not be before purchase_date ` +
        `(${next.purchase_date})`,
    );
  }
  return next;
}

/**
 * How the feed names a write that moved custody: a check-out or a check-in alone; handing the
 * asset from one person to another straight away reads as a check-out (to the new holder).
 */
function custodyAction(custody: { out: Holder | null; in: Holder | null }): string | null {
  if (custody.out) return 'checked_out';
  if (custody.in) return 'checked_in';
  return null;
}

/** Check-out and check-in events carry the asset as fetched and the person concerned. */
export async function writeCustodyEvent(
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
