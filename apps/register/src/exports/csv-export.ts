import {
  type CallerContext,
  type ExportChunk,
  type ExportChunkMessage,
} from '@custodian/contracts';
import type { Queryable } from '@custodian/persistence';
import { listConditions, type ListFilter } from '@custodian/register-sql';
import { UTF8_BOM, csvLines } from './csv-cells';
import {
  chooseColumns,
  decodeExportCursor,
  encodeExportCursor,
  splitExportQuery,
} from './export-query';

/** What a table's export reads and how its rows become cells. */
export interface ExportSource<Row> {
  /** SELECT list (each standard column aliased by its CSV name) and FROM with joins. */
  select: string;
  from: string;
  alias: string;
  /** The standard columns, in the file's default order. */
  columns: readonly string[];
  /** The list's own query parser (filters as the list takes them). */
  parse: (filters: Record<string, string | string[] | undefined>) => ListFilter;
  /** The custom fields' keys of the workspace (none for a table without them). */
  customKeys: (db: Queryable, workspaceId: string) => Promise<string[]>;
  cell: (row: Row, column: string) => string;
}

interface CursorRow {
  id: string | null;
  cursor_at: string;
}

/**
 * One chunk of a CSV export: up to `chunkRows` rows after the cursor, oldest first
 * (created_at, id), through the table's (workspace_id, created_at, id) index, the header line
 * (after a byte-order mark) before the first. Each chunk seeks past the last row of the one
 * before by its values, not its id, so a row deleted between two chunks loses nothing; a row
 * created meanwhile comes in a later chunk or not at all, and none comes twice.
 */
export async function exportChunk<Row extends CursorRow>(
  db: Queryable,
  caller: CallerContext,
  message: ExportChunkMessage,
  source: ExportSource<Row>,
  chunkRows: number,
): Promise<ExportChunk> {
  const { filters, columns: asked } = splitExportQuery(message.query);
  const filter = source.parse(filters);
  const after = message.after === undefined ? null : decodeExportCursor(message.after);
  const known = [...source.columns, ...(await source.customKeys(db, caller.workspaceId))];
  const columns = chooseColumns(asked, known);
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length + 1}`;
  };
  const { alias } = source;
  const conditions = [`${alias}.workspace_id = $1`, ...listConditions(alias, filter, param)];
  if (after) {
    conditions.push(
      `(${alias}.created_at, ${alias}.id) > (${param(after.createdAt)}::timestamptz, ${param(after.id)})`,
    );
  }
  const rows = await db.query<Row[]>(
    `SELECT ${source.select},
       to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at
     FROM ${source.from}
     WHERE ${conditions.join(' AND ')}
     ORDER BY ${alias}.created_at, ${alias}.id
     LIMIT ${chunkRows}`,
    [caller.workspaceId, ...params],
  );
  const lines = rows.map((row) => columns.map((column) => source.cell(row, column)));
  const header = after === null ? UTF8_BOM + csvLines([columns]) : '';
  const last = rows.at(-1);
  return {
    csv: header + csvLines(lines),
    next:
      last && rows.length === chunkRows
        ? encodeExportCursor({ createdAt: last.cursor_at, id: last.id ?? '' })
        : null,
    rows: rows.length,
  };
}

/** A custom field's value as a cell: text as it is, a list joined by "; ", other JSON. */
export function customCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return value.join('; ');
  }
  return JSON.stringify(value);
}

/** `to_char` of a timestamptz in UTC with milliseconds, as the API writes instants. */
export function isoSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
