import { queryOne } from '@custodian/persistence';
import { effectiveLimits } from '@custodian/plans';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AccessRecord } from '../access/access-record';
import { planLimits, type PlanEntity } from '../workspaces/plan.entity';
import type { WorkspaceEntity } from '../workspaces/workspace.entity';
import type { ApiKeyEntity } from './api-key.entity';
import type { CacheRepairEntity } from './cache-repair.entity';

/*
 * gateway.api_keys and gateway.cache_repairs: their SQL and their row types. AccessStore reads
 * a key's access record (the key, its workspace and its plan) for the key cache; the functions
 * below it are the keys' own statements (KeysService) and the cache's repair queue
 * (AccessPublisher). The workspace's row lock is the workspaces' (workspaces/workspace.store.ts).
 */

// ---------------------------------------------------------------------------------------------
// Access records (AccessStore)

/** A key, its workspace and its plan's limits; column names are the aliases of COLUMNS. */
type AccessRow = Pick<ApiKeyEntity, 'key_hash' | 'prefix' | 'scope' | 'revoked_at'> & {
  key_id: ApiKeyEntity['id'];
  key_name: ApiKeyEntity['name'];
  workspace_id: WorkspaceEntity['id'];
  workspace_name: WorkspaceEntity['name'];
} & Pick<WorkspaceEntity, 'plan' | 'overrides'> &
  Omit<PlanEntity, 'name'>;

const COLUMNS = `k.key_hash, k.id AS key_id, k.name AS key_name, k.prefix, k.scope, k.revoked_at,
    w.id AS workspace_id, w.name AS workspace_name, w.plan, w.overrides,
    p.api_access, p.rate_per_minute, p.monthly_quota, p.assets, p.people, p.seats`;

const FROM = `gateway.api_keys k
  JOIN gateway.workspaces w ON w.id = k.workspace_id
  JOIN gateway.plans p ON p.name = w.plan`;

const SELECT = `SELECT ${COLUMNS} FROM ${FROM}`;

/** Postgres is the truth about keys; the cache only ever holds what this returns. */
@Injectable()
export class AccessStore {
  constructor(private readonly db: DataSource) {}

  async byHash(keyHash: string): Promise<AccessRecord | null> {
    const rows = await this.db.query<AccessRow[]>(`${SELECT} WHERE k.key_hash = $1`, [keyHash]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** The record plus the key's request count for `month`, for seeding Redis. */
  async byHashWithUsage(
    keyHash: string,
    month: string,
  ): Promise<{ record: AccessRecord; monthUsed: number } | null> {
    // month_used: gateway.key_usage.requests (limits/key-usage.entity.ts), a bigint sent as
    // text; spelled out here because limits, which owns that table, is built on keys.
    const rows = await this.db.query<Array<AccessRow & { month_used: string | null }>>(
      `SELECT ${COLUMNS}, u.requests AS month_used FROM ${FROM}
       LEFT JOIN gateway.key_usage u ON u.key_id = k.id AND u.month = $2
       WHERE k.key_hash = $1`,
      [keyHash, month],
    );
    const row = rows[0];
    return row ? { record: toRecord(row), monthUsed: Number(row.month_used ?? 0) } : null;
  }

  async byWorkspace(
    workspaceId: string,
    manager: EntityManager = this.db.manager,
  ): Promise<Array<[string, AccessRecord]>> {
    const rows = await manager.query<AccessRow[]>(`${SELECT} WHERE k.workspace_id = $1`, [
      workspaceId,
    ]);
    return rows.map((row) => [row.key_hash, toRecord(row)]);
  }

  async byKeyId(keyId: string): Promise<[string, AccessRecord] | null> {
    const rows = await this.db.query<AccessRow[]>(`${SELECT} WHERE k.id = $1`, [keyId]);
    return rows[0] ? [rows[0].key_hash, toRecord(rows[0])] : null;
  }
}

function toRecord(row: AccessRow): AccessRecord {
  return {
    keyId: row.key_id,
    keyName: row.key_name,
    prefix: row.prefix,
    scope: row.scope,
    revoked: row.revoked_at !== null,
    workspaceId: row.workspace_id,
    workspaceName: row.workspace_name,
    plan: row.plan,
    apiAccess: row.api_access,
    limits: effectiveLimits(planLimits(row), row.overrides),
  };
}

// ---------------------------------------------------------------------------------------------
// Keys (KeysService)

/** The columns a creation writes: the key as its hash, and its display prefix. */
export type NewKeyRow = Pick<
  ApiKeyEntity,
  'id' | 'workspace_id' | 'name' | 'scope' | 'prefix' | 'key_hash' | 'created_by'
>;

export function insertKey(tx: EntityManager, key: NewKeyRow): Promise<ApiKeyEntity> {
  return queryOne<ApiKeyEntity>(
    tx,
    `INSERT INTO gateway.api_keys (id, workspace_id, name, scope, prefix, key_hash, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [key.id, key.workspace_id, key.name, key.scope, key.prefix, key.key_hash, key.created_by],
  );
}

/** The workspace of the key, if there is such a key. */
export async function keyWorkspace(
  db: DataSource,
  id: string,
): Promise<ApiKeyEntity['workspace_id'] | undefined> {
  const keys = await db.query<Array<Pick<ApiKeyEntity, 'workspace_id'>>>(
    `SELECT workspace_id FROM gateway.api_keys WHERE id = $1`,
    [id],
  );
  return keys[0]?.workspace_id;
}

/** The key, locked for the rest of the transaction. */
export function lockKey(
  tx: EntityManager,
  id: string,
): Promise<Pick<ApiKeyEntity, 'name' | 'prefix' | 'revoked_at'>> {
  return queryOne<Pick<ApiKeyEntity, 'name' | 'prefix' | 'revoked_at'>>(
    tx,
    `SELECT name, prefix, revoked_at FROM gateway.api_keys WHERE id = $1 FOR UPDATE`,
    [id],
  );
}

/** Revokes the key; one already revoked keeps its revocation time. */
export function revokeKey(
  tx: EntityManager,
  id: string,
): Promise<Pick<ApiKeyEntity, 'id'> & { revoked_at: Date }> {
  // coalesce: the revocation time, never null here.
  return queryOne<Pick<ApiKeyEntity, 'id'> & { revoked_at: Date }>(
    tx,
    `UPDATE gateway.api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
         RETURNING id, revoked_at`,
    [id],
  );
}

/** The workspace's keys, oldest first. */
export function workspaceKeys(db: DataSource, workspace: string): Promise<ApiKeyEntity[]> {
  return db.query<ApiKeyEntity[]>(
    `SELECT * FROM gateway.api_keys WHERE workspace_id = $1 ORDER BY created_at, id`,
    [workspace],
  );
}

/** A key and when a request with it was last counted (gateway.key_usage; null: never). */
export type KeyWithUseRow = ApiKeyEntity & { last_used_at: Date | null };

export function workspaceKeysWithUse(db: DataSource, workspace: string): Promise<KeyWithUseRow[]> {
  return db.query<KeyWithUseRow[]>(
    `SELECT k.*,
              (SELECT max(u.updated_at) FROM gateway.key_usage u
                WHERE u.key_id = k.id AND u.requests > 0) AS last_used_at
       FROM gateway.api_keys k WHERE k.workspace_id = $1 ORDER BY k.created_at, k.id`,
    [workspace],
  );
}

// ---------------------------------------------------------------------------------------------
// The key cache's repair queue (AccessPublisher)

/** Queues the workspace, in the transaction of its change. */
export async function queueRepair(tx: EntityManager, workspaceId: string): Promise<void> {
  await tx.query(
    `INSERT INTO gateway.cache_repairs (workspace_id) VALUES ($1) ON CONFLICT DO NOTHING`,
    [workspaceId],
  );
}

/** Takes the workspace off the queue, once its keys are rewritten. */
export async function repairDone(tx: EntityManager, workspaceId: string): Promise<void> {
  await tx.query(`DELETE FROM gateway.cache_repairs WHERE workspace_id = $1`, [workspaceId]);
}

/** The oldest queued workspaces, 100 at most. */
export function queuedRepairs(
  db: DataSource,
): Promise<Array<Pick<CacheRepairEntity, 'workspace_id'>>> {
  return db.query<Array<Pick<CacheRepairEntity, 'workspace_id'>>>(
    `SELECT workspace_id FROM gateway.cache_repairs ORDER BY requested_at LIMIT 100`,
  );
}
