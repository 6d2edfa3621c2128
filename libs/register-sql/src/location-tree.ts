import { LOCATION_DEPTH_MAX } from '@custodian/contracts/constants';

/**
 * A recursive CTE `name(id, depth)`: location `location` of workspace `workspace` (both SQL
 * parameters, `$1`...) and every place under it, one probe of the (parent_id, name) index per
 * place. Bounded by the tree's depth, so it always ends. A statement puts it after
 * `WITH RECURSIVE`; the register's writes and the lists' `include_children` filter share it.
 */
export function subtreeCte(name: string, workspace: string, location: string): string {
  return `${name}(id, depth) AS (
    SELECT l.id, 0 FROM register.locations l WHERE l.workspace_id = ${workspace} AND l.id = ${location}
    UNION ALL
    SELECT c.id, s.depth + 1 FROM register.locations c JOIN ${name} s ON c.parent_id = s.id
     WHERE s.depth < ${LOCATION_DEPTH_MAX})`;
}
