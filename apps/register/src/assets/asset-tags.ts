import { DomainError } from '@custodian/contracts';
import { isUniqueViolation } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';

const TAG_CONSTRAINT = 'assets_workspace_tag';

/** The id of the asset of the workspace that has `tag`, if any. */
export async function tagTaken(
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

export async function assertTagFree(
  tx: EntityManager,
  workspaceId: string,
  tag: string,
): Promise<void> {
  const holder = await tagTaken(tx, workspaceId, tag);
  if (holder) throw tagConflict(tag);
}

function tagConflict(tag: string): DomainError {
  return new DomainError('conflict', `asset_tag ${tag} is already used by another asset`);
}

/** Two concurrent writes of one tag both pass the check; the unique index decides. */
export function translateTagConflict(error: unknown, tag: string | undefined): unknown {
  if (isUniqueViolation(error, TAG_CONSTRAINT)) return tagConflict(tag?.trim() ?? 'given');
  return error;
}
