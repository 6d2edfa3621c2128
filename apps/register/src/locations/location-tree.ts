import { DomainError } from '@custodian/contracts';
import { newId, queryOne, queryRows, type Queryable } from '@custodian/persistence';
import { subtreeCte } from '@custodian/register-sql';

/**
 * The ids of location `$2` of workspace `$1` and of every place under it, as a recursive CTE
 * named `subtree(id)`; a statement puts it in its WITH.
 */
export const SUBTREE_CTE = subtreeCte('subtree', '$1', '$2');

/** Location `id` and every place under it; empty when it is not one of the workspace's. */
export async function subtreeIds(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    `WITH RECURSIVE ${SUBTREE_CTE} SELECT id FROM subtree`,
    [workspaceId, id],
  );
  return rows.map((row) => row.id);
}

/** What an asset or person write says of its location: a name, an id, or neither. */
export interface LocationChoice {
  location?: string | null;
  location_id?: string | null;
}

/**
 * The location id a write asks for; undefined when it says nothing, null when it clears it.
 * `location_id` must be one of the workspace's places (else 400 naming the field); `location`
 * by name finds the one place of that name anywhere in the tree, or creates it at the top
 * level when there is none, as v1 always did. A name that several places share (Room 1 in two
 * buildings) is refused: the caller is told to send `location_id`. Both fields at once are
 * refused: one field says where, never two that might disagree.
 */
export async function chooseLocation(
  db: Queryable,
  workspaceId: string,
  input: LocationChoice,
): Promise<string | null | undefined> {
  const byName = input.location;
  const byId = input.location_id;
  if (byName !== undefined && byId !== undefined) {
    throw new DomainError(
      'invalid_input',
      'location and location_id: send one of them (location_id, or location by name)',
    );
  }
  if (byId !== undefined) {
    if (byId === null) return null;
    const [row] = await queryRows<{ id: string }>(
      db,
      `SELECT id FROM register.locations WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, byId],
    );
    if (!row) {
      throw new DomainError(
        'invalid_input',
        `location_id: ${byId} is not a location of this workspace`,
      );
    }
    return row.id;
  }
  if (byName === undefined) return undefined;
  if (byName === null) return null;
  return locationByName(db, workspaceId, byName);
}

/** The one place called `name` (any case), or a new top-level one. */
export async function locationByName(
  db: Queryable,
  workspaceId: string,
  name: string,
): Promise<string> {
  const trimmed = name.trim();
  const found = await queryRows<{ id: string }>(
    db,
    `SELECT id FROM register.locations WHERE workspace_id = $1 AND lower(name) = lower($2)
      LIMIT 2`,
    [workspaceId, trimmed],
  );
  if (found.length > 1) {
    throw new DomainError(
      'invalid_input',
      `location: more than one place is called "${trimmed}"; send location_id to say which`,
    );
  }
  if (found[0]) return found[0].id;
  // The no-op update makes RETURNING yield the row a concurrent write created first.
  const row = await queryOne<{ id: string }>(
    db,
    `INSERT INTO register.locations (id, workspace_id, name) VALUES ($1, $2, $3)
     ON CONFLICT (workspace_id, lower(name)) WHERE parent_id IS NULL
       DO UPDATE SET name = register.locations.name
     RETURNING id`,
    [newId('loc'), workspaceId, trimmed],
  );
  return row.id;
}
