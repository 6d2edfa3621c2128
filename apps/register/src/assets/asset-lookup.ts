import { DomainError } from '@custodian/contracts';
import { DETAIL_COLUMNS, DETAIL_FROM } from '@custodian/register-sql';
import type { EntityManager } from 'typeorm';
import type { AssetDetailRow } from './asset-rows';

/**
 * The one way an asset is looked up by id: always within the caller's workspace, and the same
 * 404 whether the id is unknown, of another workspace, or in the bin.
 */
export async function findAssetRow(
  manager: EntityManager,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<AssetDetailRow> {
  if (id.length > 64 || id.includes('\u0000')) throw assetNotFound(id);
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
  if (!row) throw assetNotFound(id);
  return row;
}

export function assetNotFound(id: string): DomainError {
  return new DomainError('not_found', `Asset ${id} not found`);
}
