import type { WorkspaceUsageCounts } from '@custodian/contracts';
import { queryOne, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import type { WorkspaceCountersEntity } from './workspace-counters.entity';

/** A workspace's row of register.workspace_counters (asset_tag_seq: bigint, sent as text). */
export type WorkspaceCounters = Pick<
  WorkspaceCountersEntity,
  'asset_count' | 'asset_tag_seq' | 'person_count' | 'member_count'
>;

/**
 * Locks the workspace's counters row, creating it on first use, and returns it. Every write
 * that counts against a plan limit (asset and person creates, accepted invitations) or takes a
 * generated asset tag goes through this lock, so limits and tags stay exact under concurrency.
 */
export function lockWorkspaceCounters(
  tx: EntityManager,
  workspaceId: string,
): Promise<WorkspaceCounters> {
  // The no-op update makes the upsert take the row lock, and RETURNING yield an existing row.
  return queryOne<WorkspaceCounters>(
    tx,
    `INSERT INTO register.workspace_counters (workspace_id) VALUES ($1)
     ON CONFLICT (workspace_id) DO UPDATE SET workspace_id = EXCLUDED.workspace_id
     RETURNING asset_count, asset_tag_seq, person_count, member_count`,
    [workspaceId],
  );
}

/**
 * What the workspace uses of its register limits, without a lock: a read for people, which
 * may be a write behind. A workspace that never counted anything has no row yet: 0 of each.
 */
export async function readWorkspaceUsage(
  db: Queryable,
  workspaceId: string,
): Promise<WorkspaceUsageCounts> {
  const rows = await db.query<
    Array<Pick<WorkspaceCountersEntity, 'asset_count' | 'person_count' | 'member_count'>>
  >(
    `SELECT asset_count, person_count, member_count FROM register.workspace_counters
     WHERE workspace_id = $1`,
    [workspaceId],
  );
  const row = rows[0];
  return {
    assets: row?.asset_count ?? 0,
    people: row?.person_count ?? 0,
    seats: row?.member_count ?? 0,
  };
}
