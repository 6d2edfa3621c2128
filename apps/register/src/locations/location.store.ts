import { DomainError, LOCATION_DEPTH_MAX, type Location } from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import { likePattern } from '@custodian/register-sql';
import type { LocationEntity } from './location.entity';

/* register.locations: its SQL, row type and view. */

export type LocationRow = Omit<LocationEntity, 'workspace_id'> & {
  depth: number;
  /** The places above it, from the top down (ids and names in the same order). */
  path_ids: string[];
  path_names: string[];
  children_count: number;
  asset_count: number;
  people_count: number;
};

/**
 * The workspace's whole tree (`$1`), each place with its depth, the ids and names above it and
 * a sort key that puts it right after its parent and its siblings by name (then id): read in
 * that order, the rows draw the tree. One pass over the workspace's places; they number in the
 * hundreds or thousands, not millions, so a page walks them all.
 */
const TREE_CTE = `tree AS (
    SELECT l.id, l.parent_id, l.name, l.address, l.notes, l.created_at, l.updated_at,
           0 AS depth, ARRAY[]::text[] AS path_ids, ARRAY[]::text[] AS path_names,
           ARRAY[lower(l.name), l.id] AS sort_key
      FROM register.locations l WHERE l.workspace_id = $1 AND l.parent_id IS NULL
    UNION ALL
    SELECT c.id, c.parent_id, c.name, c.address, c.notes, c.created_at, c.updated_at,
           t.depth + 1, t.path_ids || t.id, t.path_names || t.name,
           t.sort_key || ARRAY[lower(c.name), c.id]
      FROM register.locations c JOIN tree t ON c.parent_id = t.id
     WHERE t.depth < ${LOCATION_DEPTH_MAX})`;

/** A page row's counts: index probes of the page's places only. */
const COUNTS = `
  (SELECT count(*)::int FROM register.locations c WHERE c.parent_id = t.id) AS children_count,
  (SELECT count(*)::int FROM register.assets a
    WHERE a.workspace_id = $1 AND a.location_id = t.id) AS asset_count,
  (SELECT count(*)::int FROM register.people p
    WHERE p.workspace_id = $1 AND p.location_id = t.id) AS people_count`;

/** A 404 for the place of the path; a 400 naming the field for one a body refers to. */
export function locationNotFound(id: string, field?: string): DomainError {
  return field
    ? new DomainError('invalid_input', `${field}: ${id} is not a location of this workspace`)
    : new DomainError('not_found', `Location ${id} not found`);
}

export interface LocationFilter {
  /** Only the places directly in this one; 'top' for the top level. */
  parentId?: string;
  search?: string;
}

/** A page of the tree, in tree order, and how many places the filter matches. */
export async function locationPage(
  db: Queryable,
  workspaceId: string,
  filter: LocationFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: LocationRow[]; total: number }> {
  const params: unknown[] = [workspaceId];
  const where: string[] = [];
  if (filter.parentId === 'top') where.push('t.parent_id IS NULL');
  else if (filter.parentId !== undefined) {
    params.push(filter.parentId);
    where.push(`t.parent_id = $${params.length}`);
  }
  if (filter.search) {
    params.push(likePattern(filter.search));
    where.push(`lower(t.name) LIKE lower($${params.length})`);
  }
  const rows = await queryRows<LocationRow & { total: number }>(
    db,
    `WITH RECURSIVE ${TREE_CTE},
       matches AS (SELECT * FROM tree t ${where.length ? `WHERE ${where.join(' AND ')}` : ''}),
       page AS (SELECT * FROM matches ORDER BY sort_key
                 LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize})
     SELECT t.*, ${COUNTS}, (SELECT count(*)::int FROM matches) AS total
       FROM page t ORDER BY t.sort_key`,
    params,
  );
  const total =
    rows[0]?.total ??
    (
      await queryRows<{ total: number }>(
        db,
        `WITH RECURSIVE ${TREE_CTE} SELECT count(*)::int AS total FROM tree t
          ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
        params,
      )
    )[0]?.total ??
    0;
  return { rows, total };
}

/**
 * One place with its path and counts; `forUpdate` locks its row first (writes). Its path is
 * read upwards from it, a probe per level.
 */
export async function findLocationRow(
  db: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean; field?: string } = {},
): Promise<LocationRow> {
  if (id.length > 64 || id.includes('\u0000')) throw locationNotFound(id, options.field);
  if (options.forUpdate) {
    await db.query(
      `SELECT 1 FROM register.locations WHERE id = $2 AND workspace_id = $1 FOR UPDATE`,
      [workspaceId, id],
    );
  }
  const [row] = await queryRows<LocationRow>(
    db,
    `WITH RECURSIVE up(id, parent_id, name, depth) AS (
        SELECT l.id, l.parent_id, l.name, 0 FROM register.locations l
         WHERE l.workspace_id = $1 AND l.id = $2
        UNION ALL
        SELECT p.id, p.parent_id, p.name, u.depth + 1
          FROM register.locations p JOIN up u ON p.id = u.parent_id
         WHERE u.depth < ${LOCATION_DEPTH_MAX})
     SELECT t.id, t.parent_id, t.name, t.address, t.notes, t.created_at, t.updated_at,
            (SELECT count(*)::int FROM up) - 1 AS depth,
            coalesce((SELECT array_agg(id ORDER BY depth DESC) FROM up WHERE depth > 0),
                     ARRAY[]::text[]) AS path_ids,
            coalesce((SELECT array_agg(name ORDER BY depth DESC) FROM up WHERE depth > 0),
                     ARRAY[]::text[]) AS path_names,
            ${COUNTS}
       FROM register.locations t WHERE t.workspace_id = $1 AND t.id = $2`,
    [workspaceId, id],
  );
  if (!row) throw locationNotFound(id, options.field);
  return row;
}

/** How many levels go down from `id` (0: no place under it). */
export async function heightUnder(db: Queryable, workspaceId: string, id: string): Promise<number> {
  const [row] = await queryRows<{ height: number }>(
    db,
    `WITH RECURSIVE down(id, depth) AS (
        SELECT l.id, 0 FROM register.locations l WHERE l.workspace_id = $1 AND l.id = $2
        UNION ALL
        SELECT c.id, d.depth + 1 FROM register.locations c JOIN down d ON c.parent_id = d.id
         WHERE d.depth < ${LOCATION_DEPTH_MAX})
     SELECT max(depth)::int AS height FROM down`,
    [workspaceId, id],
  );
  return row?.height ?? 0;
}

/** The id of the place called `name` (any case) directly in `parentId` (null: the top). */
export async function siblingNamed(
  db: Queryable,
  workspaceId: string,
  parentId: string | null,
  name: string,
): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(
    db,
    parentId === null
      ? `SELECT id FROM register.locations
          WHERE workspace_id = $1 AND parent_id IS NULL AND lower(name) = lower($2)`
      : `SELECT id FROM register.locations
          WHERE workspace_id = $1 AND parent_id = $3 AND lower(name) = lower($2)`,
    parentId === null ? [workspaceId, name] : [workspaceId, name, parentId],
  );
  return row?.id ?? null;
}

export function toLocation(row: LocationRow): Location {
  const path = row.path_ids.map((id, index) => ({ id, name: row.path_names[index] ?? '' }));
  return {
    id: row.id,
    name: row.name,
    parent: path.at(-1) ?? null,
    path,
    depth: row.depth,
    address: row.address,
    notes: row.notes,
    children_count: row.children_count,
    asset_count: row.asset_count,
    people_count: row.people_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
