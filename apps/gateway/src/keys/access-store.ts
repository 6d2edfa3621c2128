import { effectiveLimits } from '@custodian/plans';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AccessRecord } from '../access/access-record';
import { planLimits, type PlanEntity } from '../workspaces/plan.entity';
import type { WorkspaceEntity } from '../workspaces/workspace.entity';
import type { ApiKeyEntity } from './api-key.entity';

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
