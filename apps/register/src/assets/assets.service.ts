import {
  ASSET_UNPAGED_MAX,
  CreateAssetInput,
  DomainError,
  UpdateAssetInput,
  type AssetDetail,
  type AssetSummary,
  type CallerContext,
  type Page,
  type RawQuery,
} from '@custodian/contracts';
import { limitReachedMessage, wouldExceed } from '@custodian/plans';
import { isUniqueViolation, newId, validateInput } from '@custodian/runtime';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { writeEvent } from '../outbox/outbox.writer';
import { likePattern, parseAssetListQuery } from './asset-list-query';
import {
  DETAIL_COLUMNS,
  DETAIL_FROM,
  SUMMARY_COLUMNS,
  toDetail,
  toSummary,
  type AssetDetailRow,
  type AssetSummaryRow,
} from './asset-rows';
import { resolveNamedRef } from './named-refs';

const TAG_CONSTRAINT = 'assets_workspace_tag';

@Injectable()
export class AssetsService {
  constructor(private readonly db: DataSource) {}

  async list(
    caller: CallerContext,
    rawQuery: RawQuery,
  ): Promise<AssetSummary[] | Page<AssetSummary>> {
    const query = parseAssetListQuery(rawQuery);
    const where = ['a.workspace_id = $1'];
    const params: unknown[] = [caller.workspaceId];
    if (query.status) {
      params.push(query.status);
      where.push(`a.status = $${params.length}`);
    }
    if (query.search) {
      params.push(likePattern(query.search));
      where.push(`a.search_text LIKE lower($${params.length})`);
    }
    const filter = where.join(' AND ');
    const select = `SELECT ${SUMMARY_COLUMNS}
      FROM register.assets a LEFT JOIN register.categories c ON c.id = a.category_id
      WHERE ${filter} ORDER BY a.created_at, a.id`;

    if (query.page === null) {
      const rows = await this.db.query<AssetSummaryRow[]>(
        `${select} LIMIT ${ASSET_UNPAGED_MAX}`,
        params,
      );
      return rows.map(toSummary);
    }
    const offset = (query.page - 1) * query.pageSize;
    const [rows, counted] = await Promise.all([
      this.db.query<AssetSummaryRow[]>(
        `${select} LIMIT ${query.pageSize} OFFSET ${offset}`,
        params,
      ),
      this.countMatching(filter, params),
    ]);
    return {
      data: rows.map(toSummary),
      page: query.page,
      pageSize: query.pageSize,
      total: counted[0]?.total ?? 0,
    };
  }

  /**
   * The exact total for the envelope. Unfiltered, it is the workspace's asset counter, kept in
   * the same transaction as every insert: counting 100,000 rows on each page 1 costs ~15 ms.
   */
  private async countMatching(filter: string, params: unknown[]) {
    if (params.length === 1) {
      return this.db.query<Array<{ total: number }>>(
        `SELECT asset_count AS total FROM register.workspace_counters WHERE workspace_id = $1`,
        params,
      );
    }
    return this.db.query<Array<{ total: number }>>(
      `SELECT count(*)::int AS total FROM register.assets a WHERE ${filter}`,
      params,
    );
  }

  async get(caller: CallerContext, id: unknown): Promise<AssetDetail> {
    return toDetail(await this.findRow(this.db.manager, caller.workspaceId, id));
  }

  async create(caller: CallerContext, body: unknown): Promise<AssetDetail> {
    const input = validateInput(CreateAssetInput, body);
    assertNoCustomFields(input.custom_fields);
    try {
      return await this.db.transaction(async (tx) => {
        const counter = await lockCounter(tx, caller.workspaceId);
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
             serial_number, asset_tag, category_id, location_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
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
            input.category
              ? await resolveNamedRef(tx, 'categories', caller.workspaceId, input.category)
              : null,
            input.location
              ? await resolveNamedRef(tx, 'locations', caller.workspaceId, input.location)
              : null,
          ],
        );
        await tx.query(
          `UPDATE register.workspace_counters
             SET asset_count = asset_count + 1, asset_tag_seq = $2 WHERE workspace_id = $1`,
          [caller.workspaceId, tagSeq],
        );
        const asset = toDetail(await this.findRow(tx, caller.workspaceId, id));
        await writeEvent(tx, caller.workspaceId, 'asset.created', asset);
        if (caller.limits.assets !== null && counter.asset_count + 1 === caller.limits.assets) {
          // This create used the last slot: one event per crossing, in the same transaction.
          await writeEvent(tx, caller.workspaceId, 'plan.limit_reached', {
            workspace: { id: caller.workspaceId },
            plan: caller.plan,
            limit: 'assets',
            value: caller.limits.assets,
          });
        }
        return asset;
      });
    } catch (error) {
      throw translateTagConflict(error, body);
    }
  }

  async update(caller: CallerContext, id: unknown, body: unknown): Promise<AssetDetail> {
    const input = validateInput(UpdateAssetInput, body);
    assertNoCustomFields(input.custom_fields);
    try {
      return await this.db.transaction(async (tx) => {
        const current = await this.findRow(tx, caller.workspaceId, id, true);
        const sets: string[] = [];
        const params: unknown[] = [current.id, caller.workspaceId];
        const set = (column: string, value: unknown) => {
          params.push(value);
          sets.push(`${column} = $${params.length}`);
        };
        if (input.name !== undefined) set('name', input.name.trim());
        if (input.status !== undefined) set('status', input.status);
        for (const column of ['sku', 'brand', 'model', 'serial_number'] as const) {
          if (input[column] !== undefined) set(column, input[column]);
        }
        if (input.asset_tag !== undefined && input.asset_tag.trim() !== current.asset_tag) {
          // Under the counter lock, like creates, so a hand-set tag cannot race a generated one.
          await lockCounter(tx, caller.workspaceId);
          await assertTagFree(tx, caller.workspaceId, input.asset_tag.trim());
          set('asset_tag', input.asset_tag.trim());
        }
        if (input.category !== undefined) {
          set(
            'category_id',
            input.category === null
              ? null
              : await resolveNamedRef(tx, 'categories', caller.workspaceId, input.category),
          );
        }
        if (input.location !== undefined) {
          set(
            'location_id',
            input.location === null
              ? null
              : await resolveNamedRef(tx, 'locations', caller.workspaceId, input.location),
          );
        }
        if (sets.length === 0) return toDetail(current);
        await tx.query(
          `UPDATE register.assets SET ${sets.join(', ')}, updated_at = now()
           WHERE id = $1 AND workspace_id = $2`,
          params,
        );
        const asset = toDetail(await this.findRow(tx, caller.workspaceId, current.id));
        await writeEvent(tx, caller.workspaceId, 'asset.updated', asset);
        return asset;
      });
    } catch (error) {
      throw translateTagConflict(error, body);
    }
  }

  /**
   * The one way an asset is looked up by id: always within the caller's workspace, and the
   * same 404 whether the id is unknown or belongs to another workspace.
   */
  private async findRow(
    manager: EntityManager,
    workspaceId: string,
    id: unknown,
    forUpdate = false,
  ): Promise<AssetDetailRow> {
    const rows =
      typeof id === 'string' && id.length <= 64 && !id.includes('\u0000')
        ? await manager.query<AssetDetailRow[]>(
            `SELECT ${DETAIL_COLUMNS} FROM ${DETAIL_FROM}
             WHERE a.id = $1 AND a.workspace_id = $2${forUpdate ? ' FOR UPDATE OF a' : ''}`,
            [id, workspaceId],
          )
        : [];
    const row = rows[0];
    if (!row) throw new DomainError('not_found', `Asset ${String(id)} not found`);
    return row;
  }
}

async function lockCounter(
  tx: EntityManager,
  workspaceId: string,
): Promise<{ asset_count: number; asset_tag_seq: string }> {
  // The no-op update takes the row lock, serialising creates within one workspace.
  const rows = await tx.query<Array<{ asset_count: number; asset_tag_seq: string }>>(
    `INSERT INTO register.workspace_counters (workspace_id) VALUES ($1)
     ON CONFLICT (workspace_id) DO UPDATE SET workspace_id = EXCLUDED.workspace_id
     RETURNING asset_count, asset_tag_seq`,
    [workspaceId],
  );
  return rows[0]!;
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
function translateTagConflict(error: unknown, body: unknown): unknown {
  if (isUniqueViolation(error, TAG_CONSTRAINT)) {
    const tag = (body as { asset_tag?: unknown }).asset_tag;
    return tagConflict(typeof tag === 'string' ? tag.trim() : 'given');
  }
  return error;
}

/** Custom-field definitions arrive with issue 4; until then no key can be valid. */
function assertNoCustomFields(fields: Record<string, unknown> | null | undefined): void {
  const key = fields ? Object.keys(fields)[0] : undefined;
  if (key !== undefined) {
    throw new DomainError(
      'invalid_input',
      `custom_fields.${key} is not a custom field of this workspace`,
    );
  }
}
