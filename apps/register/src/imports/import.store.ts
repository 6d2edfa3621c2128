import {
  DomainError,
  type Import,
  type ImportPlan,
  type ImportResult,
  type ImportRow,
  type ImportStatus,
  type ImportType,
} from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';

/** A row of register.imports as the jobs and views read it. */
export interface ImportRecord {
  id: string;
  workspace_id: string;
  type: ImportType;
  status: ImportStatus;
  dry_run: boolean;
  filename: string | null;
  columns: string[];
  total_rows: number;
  planned_rows: number;
  plan_create: number;
  plan_update: number;
  plan_refuse: number;
  done_rows: number;
  created_count: number;
  updated_count: number;
  unchanged_count: number;
  refused_count: number;
  created_by: Record<string, unknown>;
  error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export interface ImportRowRecord {
  row_number: number;
  cells: string[];
  match_key: string | null;
  plan: ImportPlan | null;
  target_id: string | null;
  message: string | null;
  result: ImportResult | null;
  record_id: string | null;
}

export function toImport(row: ImportRecord): Import {
  const progress =
    row.status === 'planning'
      ? { done: row.planned_rows, total: row.total_rows }
      : row.status === 'importing'
        ? { done: row.done_rows, total: row.total_rows }
        : null;
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    filename: row.filename,
    dry_run: row.dry_run,
    columns: row.columns,
    rows: row.total_rows,
    plan: { create: row.plan_create, update: row.plan_update, refuse: row.plan_refuse },
    results: {
      created: row.created_count,
      updated: row.updated_count,
      unchanged: row.unchanged_count,
      refused: row.refused_count,
    },
    progress,
    error: row.error,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

export function toImportRow(columns: readonly string[], row: ImportRowRecord): ImportRow {
  return {
    row: row.row_number,
    data: Object.fromEntries(columns.map((column, i) => [column, row.cells[i] ?? ''])),
    plan: row.plan,
    target_id: row.target_id,
    result: row.result,
    record_id: row.record_id,
    message: row.message,
  };
}

/** The import of the workspace, locked for a change of status when `forUpdate`. */
export async function findImport(
  db: Queryable,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<ImportRecord> {
  // No id of ours is longer, and Postgres refuses a NUL in text (an error, not a miss).
  if (id.length > 64 || id.includes('\u0000')) throw importNotFound(id);
  const [row] = await queryRows<ImportRecord>(
    db,
    `SELECT * FROM register.imports WHERE id = $1 AND workspace_id = $2
     ${forUpdate ? 'FOR UPDATE' : ''}`,
    [id, workspaceId],
  );
  if (!row) throw importNotFound(id);
  return row;
}

function importNotFound(id: string): DomainError {
  return new DomainError('not_found', `import ${id} not found`);
}

/** The next import a job has work on, claimed for this transaction (others skip it). */
export async function claimImportJob(db: Queryable): Promise<ImportRecord | undefined> {
  const [row] = await queryRows<ImportRecord>(
    db,
    `SELECT * FROM register.imports WHERE status IN ('planning', 'importing')
     ORDER BY updated_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [],
  );
  return row;
}
