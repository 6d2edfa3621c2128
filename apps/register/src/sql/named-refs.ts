import { newId, queryOne, type Queryable } from '@custodian/persistence';

/** Locations are a tree with names unique among siblings: locations/location-tree.ts. */
type NamedTable = 'categories' | 'departments';

/** Categories and departments are referenced by name and created on first use. */
export async function resolveNamedRef(
  manager: Queryable,
  table: NamedTable,
  workspaceId: string,
  name: string,
): Promise<string> {
  const prefix = table === 'categories' ? 'cat' : 'dep';
  // The no-op update makes RETURNING yield the existing row on conflict.
  const row = await queryOne<{ id: string }>(
    manager,
    `INSERT INTO register.${table} (id, workspace_id, name) VALUES ($1, $2, $3)
     ON CONFLICT (workspace_id, lower(name)) DO UPDATE SET name = register.${table}.name
     RETURNING id`,
    [newId(prefix), workspaceId, name.trim()],
  );
  return row.id;
}

/** The id for a name given in a write, or null when the write clears it (or gives none). */
export async function resolveOptionalRef(
  manager: Queryable,
  table: NamedTable,
  workspaceId: string,
  name: string | null | undefined,
): Promise<string | null> {
  return name ? resolveNamedRef(manager, table, workspaceId, name) : null;
}
