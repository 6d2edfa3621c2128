import {
  BULK_CHUNK_SIZE,
  BULK_UPDATE_FIELDS,
  DomainError,
  statusForCode,
  type AssetStatus,
  type BulkAssetInput,
  type BulkAssetReply,
  type BulkAssetResult,
  type BulkOutcome,
  type CallerContext,
  type UpdateAssetInput,
} from '@custodian/contracts';
import { currentRpcRequest, type RpcRequestContext } from '@custodian/messaging';
import { queryRows } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { chooseCategory } from '../categories/category-choice';
import { chooseLocation } from '../locations/location-tree';
import { WriteTransactions } from '../requests/write-transactions';
import { AssetBin } from './asset-bin';
import { assetNotFound } from './asset.store';
import { AssetsService } from './assets.service';

/**
 * POST /assets/bulk: one change to up to 1,000 assets. The rules stay those of the single
 * routes: each asset is written by AssetsService.updateIn (PATCH) or AssetBin.deleteIn (the
 * bin), so its row, its events and its feed entry are exactly theirs. What this adds is the
 * batch: the body's checks before anything is written, chunks of a transaction each, rows
 * locked in id order, a savepoint per asset so one refusal does not undo its chunk, and a
 * result per id.
 */

/** The change a valid body asks for, checked once for every asset. */
export type BulkChange =
  | { action: 'update'; field: 'status'; status: AssetStatus }
  | {
      action: 'update';
      field: 'location' | 'category';
      /** The body's own field and value: an id, a name, or null to clear. */
      input: Record<string, string | null>;
    }
  | { action: 'check_out'; personId: string; dueAt: Date | null }
  | { action: 'check_in' }
  | { action: 'delete' };

const CHECK_OUT_FIELDS = ['person_id', 'due_at'] as const;

/**
 * The change of a body the contract's decorators accepted, or a 400 naming the field: which
 * fields go with which action is not something a class decorator says.
 */
export function bulkChange(input: BulkAssetInput): BulkChange {
  const given = (fields: readonly string[]) =>
    fields.filter((field) => (input as unknown as Record<string, unknown>)[field] !== undefined);
  const refuseOthers = (allowed: readonly string[]) => {
    const extra = given([...BULK_UPDATE_FIELDS, ...CHECK_OUT_FIELDS]).filter(
      (field) => !allowed.includes(field),
    );
    if (extra.length > 0) {
      throw new DomainError(
        'invalid_input',
        `${extra.join(', ')}: not taken with action ${input.action}`,
      );
    }
  };
  switch (input.action) {
    case 'update': {
      const fields = given(BULK_UPDATE_FIELDS);
      const [field] = fields;
      if (field === undefined || fields.length > 1) {
        throw new DomainError(
          'invalid_input',
          `${BULK_UPDATE_FIELDS.join(', ')}: give exactly one of them with action update` +
            (fields.length > 1 ? ` (got ${fields.join(', ')})` : ''),
        );
      }
      refuseOthers(fields);
      if (field === 'status')
        return { action: 'update', field, status: input.status as AssetStatus };
      return {
        action: 'update',
        field: field.startsWith('location') ? 'location' : 'category',
        input: { [field]: input[field as 'location_id'] ?? null },
      };
    }
    case 'check_out': {
      if (input.person_id === undefined) {
        throw new DomainError('invalid_input', 'person_id is required with action check_out');
      }
      refuseOthers(CHECK_OUT_FIELDS);
      const dueAt = input.due_at === undefined ? null : new Date(input.due_at);
      return { action: 'check_out', personId: input.person_id, dueAt };
    }
    case 'check_in':
    case 'delete':
      refuseOthers([]);
      return { action: input.action };
    default:
      throw new DomainError(
        'invalid_input',
        'action must be one of update, check_out, check_in, delete',
      );
  }
}

/** The ids in chunks of `size`, sorted: every bulk call locks rows in one order. */
export function chunksOf(ids: readonly string[], size = BULK_CHUNK_SIZE): string[][] {
  const sorted = [...new Set(ids)].sort();
  const chunks: string[][] = [];
  for (let start = 0; start < sorted.length; start += size) {
    chunks.push(sorted.slice(start, start + size));
  }
  return chunks;
}

/** What a locked asset row holds of what a change compares. */
export interface BulkAssetRow {
  id: string;
  status: AssetStatus;
  location_id: string | null;
  category_id: string | null;
  assigned_to_id: string | null;
  assigned_name: string | null;
  custody_due_at: Date | null;
}

/**
 * What the change does to one asset: nothing (it already is so), a refusal, or the write.
 * `target`: the location or category id the change resolved to (undefined for the others).
 */
export function decide(
  row: BulkAssetRow,
  change: BulkChange,
  target?: string | null,
): 'unchanged' | 'apply' | DomainError {
  switch (change.action) {
    case 'update':
      if (change.field === 'status') return row.status === change.status ? 'unchanged' : 'apply';
      if (change.field === 'location') return row.location_id === target ? 'unchanged' : 'apply';
      return row.category_id === target ? 'unchanged' : 'apply';
    case 'check_out':
      if (row.assigned_to_id === change.personId) {
        // Out to that person already: only a new due date is a change.
        const due = row.custody_due_at?.getTime() ?? null;
        return change.dueAt === null || change.dueAt.getTime() === due ? 'unchanged' : 'apply';
      }
      if (row.assigned_to_id !== null) {
        // A bulk check-out does not take assets from whoever holds them (a PATCH of one asset
        // may hand it over): the caller checks them in first, knowingly.
        return new DomainError(
          'conflict',
          `Asset ${row.id} is checked out to ${row.assigned_name ?? row.assigned_to_id}; check ` +
            'it in before checking it out to someone else',
        );
      }
      return 'apply';
    case 'check_in':
      return row.assigned_to_id === null ? 'unchanged' : 'apply';
    case 'delete':
      return 'apply';
  }
}

/** How many results of each outcome. */
export function countOutcomes(results: readonly BulkAssetResult[]): Record<BulkOutcome, number> {
  const counts = { updated: 0, unchanged: 0, not_found: 0, refused: 0 };
  for (const result of results) counts[result.outcome] += 1;
  return counts;
}

function refused(id: string, error: DomainError, outcome: BulkOutcome = 'refused') {
  return { id, outcome, status: statusForCode(error.code), message: error.message };
}

@Injectable()
export class AssetBulk {
  constructor(
    private readonly writes: WriteTransactions,
    private readonly assets: AssetsService,
    private readonly bin: AssetBin,
  ) {}

  async apply(caller: CallerContext, input: BulkAssetInput): Promise<BulkAssetReply> {
    const change = bulkChange(input);
    const request = currentRpcRequest();
    const byId = new Map<string, BulkAssetResult>();
    const chunks = chunksOf(input.ids);
    for (const [index, ids] of chunks.entries()) {
      let results: BulkAssetResult[];
      try {
        ({ reply: results } = await this.writes.apply(
          caller.workspaceId,
          (tx) => this.applyChunk(tx, caller, change, ids, index),
          (answer) => answer,
          chunkRequest(request, index),
        ));
      } catch (error) {
        if (index === 0 || !(error instanceof DomainError)) throw error;
        // The chunks before committed: "nothing was written" would be wrong.
        throw new DomainError(
          error.code === 'overloaded' ? 'timeout' : error.code,
          `${error.message} (bulk ${input.action}: the first ${byId.size} of ` +
            `${input.ids.length} assets in id order were applied; send the request again, ` +
            'with the same Idempotency-Key ' +
            'if it had one: the assets applied answer unchanged)',
        );
      }
      for (const result of results) byId.set(result.id, result);
    }
    const results = input.ids.map(
      (id): BulkAssetResult => byId.get(id) ?? { id, outcome: 'not_found' },
    );
    return { action: input.action, results, counts: countOutcomes(results) };
  }

  /**
   * What the body names beyond the assets, and its due date, checked by the first chunk
   * before it writes anything: a 400 naming the field, not one refusal per asset. Inside that
   * chunk's transaction, so a retry of a request whose first chunk committed (same
   * Idempotency-Key, a redelivery) answers as the first time, even if the due date has passed
   * since. (Each asset's write checks again: a person made inactive while the later chunks
   * run is a refusal of the assets not yet applied.)
   */
  private async checkFirst(
    db: EntityManager,
    workspaceId: string,
    change: BulkChange,
  ): Promise<void> {
    if (change.action === 'check_out' && change.dueAt && !(change.dueAt.getTime() > Date.now())) {
      throw new DomainError(
        'invalid_input',
        `due_at ${change.dueAt.toISOString()} is not in the future`,
      );
    }
    if (change.action === 'check_out') {
      const [person] = await queryRows<{ status: string }>(
        db,
        `SELECT status FROM register.people WHERE workspace_id = $1 AND id = $2`,
        [workspaceId, change.personId],
      );
      if (!person) {
        throw new DomainError(
          'invalid_input',
          `person_id ${change.personId} is not a person of this workspace`,
        );
      }
      if (person.status !== 'active') {
        throw new DomainError(
          'invalid_input',
          `person_id ${change.personId} is inactive; assets are checked out to active people only`,
        );
      }
    }
    // An id that names nothing is refused now; a name is found (or made) by the first chunk.
    if (change.action === 'update' && 'input' in change) {
      const input = change.input;
      if (input.location_id) await chooseLocation(db, workspaceId, input);
      if (input.category_id) await chooseCategory(db, workspaceId, input);
    }
  }

  private async applyChunk(
    tx: EntityManager,
    caller: CallerContext,
    change: BulkChange,
    ids: string[],
    index: number,
  ): Promise<BulkAssetResult[]> {
    const workspaceId = caller.workspaceId;
    if (index === 0) await this.checkFirst(tx, workspaceId, change);
    // The rows first, in id order, in a statement of their own (see findAssetRow): two bulk
    // calls over the same assets wait for each other instead of deadlocking, and the due-date
    // engine's handlers (SKIP LOCKED) pass over them while this chunk runs.
    await tx.query(
      `SELECT 1 FROM register.assets WHERE workspace_id = $1 AND id = ANY($2::text[])
        ORDER BY id FOR UPDATE`,
      [workspaceId, ids],
    );
    const rows = new Map(
      (
        await queryRows<BulkAssetRow>(
          tx,
          `SELECT a.id, a.status, a.location_id, a.category_id, a.assigned_to_id,
                  p.full_name AS assigned_name, a.custody_due_at
             FROM register.assets a LEFT JOIN register.people p ON p.id = a.assigned_to_id
            WHERE a.workspace_id = $1 AND a.id = ANY($2::text[])`,
          [workspaceId, ids],
        )
      ).map((row) => [row.id, row]),
    );
    const missing = ids.filter((id) => !rows.has(id));
    const binned = new Set(
      missing.length === 0
        ? []
        : (
            await queryRows<{ id: string }>(
              tx,
              `SELECT id FROM register.deleted_assets
                WHERE workspace_id = $1 AND id = ANY($2::text[])`,
              [workspaceId, missing],
            )
          ).map((row) => row.id),
    );
    let target: string | null | undefined;
    if (change.action === 'update' && 'input' in change) {
      try {
        target =
          change.field === 'location'
            ? await chooseLocation(tx, workspaceId, change.input)
            : await chooseCategory(tx, workspaceId, change.input);
      } catch (error) {
        // The first chunk: the request is refused whole (nothing written). A later one (the
        // place deleted meanwhile): its assets are refused, as a PATCH of each would be.
        if (index === 0 || !(error instanceof DomainError)) throw error;
        return ids.map((id) => refused(id, error));
      }
    }
    const results: BulkAssetResult[] = [];
    for (const id of ids) {
      const row = rows.get(id);
      if (!row) {
        if (binned.has(id)) {
          results.push(
            change.action === 'delete'
              ? { id, outcome: 'unchanged' }
              : refused(
                  id,
                  new DomainError(
                    'conflict',
                    `Asset ${id} is in the bin; restore it before changing it`,
                  ),
                ),
          );
        } else {
          results.push(refused(id, assetNotFound(id), 'not_found'));
        }
        continue;
      }
      const decision = decide(row, change, target);
      if (decision === 'unchanged') {
        results.push({ id, outcome: 'unchanged' });
        continue;
      }
      if (decision instanceof DomainError) {
        results.push(refused(id, decision));
        continue;
      }
      // One asset's writes undone alone when a rule refuses it midway.
      await tx.query('SAVEPOINT bulk_asset');
      try {
        await this.write(tx, caller, change, id, target);
        await tx.query('RELEASE SAVEPOINT bulk_asset');
        results.push({ id, outcome: 'updated' });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        await tx.query('ROLLBACK TO SAVEPOINT bulk_asset');
        results.push(refused(id, error));
      }
    }
    return results;
  }

  /** The single route's write of one asset. */
  private async write(
    tx: EntityManager,
    caller: CallerContext,
    change: BulkChange,
    id: string,
    target: string | null | undefined,
  ): Promise<void> {
    if (change.action === 'delete') {
      await this.bin.deleteIn(tx, caller, id);
      return;
    }
    let patch: UpdateAssetInput;
    if (change.action === 'check_in') patch = { assigned_to_id: null };
    else if (change.action === 'check_out') {
      patch = {
        assigned_to_id: change.personId,
        ...(change.dueAt ? { due_at: change.dueAt.toISOString() } : {}),
      };
    } else if (change.field === 'status') patch = { status: change.status };
    else if (change.field === 'location') patch = { location_id: target ?? null };
    else patch = { category_id: target ?? null };
    await this.assets.updateIn(tx, caller, id, patch);
  }
}

/**
 * Each chunk is a write of its own in register.applied_requests, under the request's id and
 * its index: a redelivered request, or a client's retry with its Idempotency-Key, answers the
 * chunks that committed from their stored results and applies only the rest. (The ids are
 * sorted before they are cut, so the same body gives the same chunks.)
 */
function chunkRequest(
  request: RpcRequestContext | undefined,
  index: number,
): RpcRequestContext | undefined {
  if (!request) return undefined;
  return {
    ...request,
    id: `${request.id}:bulk:${index}`,
    ...(request.formerId ? { formerId: `${request.formerId}:bulk:${index}` } : {}),
  };
}
