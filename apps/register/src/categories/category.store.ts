import { DomainError, type Category } from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import { likePattern } from '@custodian/register-sql';
import type { CategoryEntity } from './category.entity';

/* register.categories: its SQL, row type and view. */

export type CategoryRow = Omit<CategoryEntity, 'workspace_id'> & { asset_count: number };

/** Its assets, through the (workspace_id, category_id, ...) index. */
const COLUMNS = `c.id, c.name, c.created_at, c.updated_at,
  (SELECT count(*)::int FROM register.assets a
    WHERE a.workspace_id = c.workspace_id AND a.category_id = c.id) AS asset_count`;

export function categoryNotFound(id: string): DomainError {
  return new DomainError('not_found', `Category ${id} not found`);
}

/** A page of the workspace's categories by name (then id), and how many match. */
export async function categoryPage(
  db: Queryable,
  workspaceId: string,
  search: string | null,
  page: number,
  pageSize: number,
): Promise<{ rows: CategoryRow[]; total: number }> {
  const params: unknown[] = [workspaceId];
  let where = 'c.workspace_id = $1';
  if (search) {
    params.push(likePattern(search));
    where += ` AND lower(c.name) LIKE lower($2)`;
  }
  const rows = await queryRows<CategoryRow>(
    db,
    `SELECT ${COLUMNS} FROM register.categories c WHERE ${where}
      ORDER BY lower(c.name), c.id LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    params,
  );
  const [count] = await queryRows<{ total: number }>(
    db,
    `SELECT count(*)::int AS total FROM register.categories c WHERE ${where}`,
    params,
  );
  return { rows, total: count?.total ?? 0 };
}

/** One category; `forUpdate` locks its row first (writes). */
export async function findCategoryRow(
  db: Queryable,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<CategoryRow> {
  if (id.length > 64 || id.includes('\u0000')) throw categoryNotFound(id);
  if (forUpdate) {
    await db.query(
      `SELECT 1 FROM register.categories WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
      [id, workspaceId],
    );
  }
  const [row] = await queryRows<CategoryRow>(
    db,
    `SELECT ${COLUMNS} FROM register.categories c WHERE c.id = $1 AND c.workspace_id = $2`,
    [id, workspaceId],
  );
  if (!row) throw categoryNotFound(id);
  return row;
}

/** The id of the workspace's category called `name` (any case), or null. */
export async function categoryNamed(
  db: Queryable,
  workspaceId: string,
  name: string,
): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(
    db,
    `SELECT id FROM register.categories WHERE workspace_id = $1 AND lower(name) = lower($2)`,
    [workspaceId, name],
  );
  return row?.id ?? null;
}

export function toCategory(row: CategoryRow): Category {
  return {
    id: row.id,
    name: row.name,
    asset_count: row.asset_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
