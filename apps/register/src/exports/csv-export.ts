import {
  type CallerContext,
  type ExportChunk,
  type ExportChunkMessage,
} from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import { listConditions, type ListFilter } from '@custodian/register-sql';
import { UTF8_BOM, csvLines } from './csv-cells';
import {
  chooseColumns,
  decodeExportCursor,
  encodeExportCursor,
  splitExportQuery,
} from './export-query';

/** What a table's export reads: each standard column as an SQL expression of its text. */
export interface ExportSource {
  /** Column name → its cell's SQL (csvCellSql or plainCellSql), on `from`'s aliases. */
  columns: Readonly<Record<string, string>>;
  /** The standard columns, in the file's default order. */
  order: readonly string[];
  from: string;
  alias: string;
  /** The list's own query parser (filters as the list takes them). */
  parse: (filters: Record<string, string | string[] | undefined>) => ListFilter;
  /** The custom fields' keys of the workspace (none for a table without them). */
  customKeys: (db: Queryable, workspaceId: string) => Promise<string[]>;
  /** The expression of a custom field's text, `key` being a parameter's placeholder. */
  custom?: (key: string) => string;
}

/**
 * A cell as csvLines writes it (RFC 4180, safeCell's apostrophe before what a spreadsheet
 * would run, then quoted), in SQL: Postgres renders a chunk's lines, so the register handles
 * one string per chunk instead of thousands of row objects (the export bench's memory). `v`
 * is a cheap expression (a column, a JSON field), named several times.
 */
export function csvCellSql(v: string): string {
  const text = `(${v})::text`;
  const quoted = (inner: string) => `'"' || ${inner} || '"'`;
  return `CASE WHEN ${v} IS NULL THEN ''
      WHEN ${text} ~ ('^[=+@' || chr(9) || chr(13) || '-]') AND ${text} !~ '^[-+]?[0-9]+([.][0-9]+)?$'
        THEN ${quoted(`'''' || replace(${text}, '"', '""')`)}
      WHEN ${text} ~ ('[",' || chr(10) || chr(13) || ']') THEN ${quoted(`replace(${text}, '"', '""')`)}
      ELSE ${text} END`;
}

/** A column whose text never needs quoting nor escaping (ids, dates, enums): as it is. */
export function plainCellSql(v: string): string {
  return `coalesce((${v})::text, '')`;
}

/**
 * One chunk of a CSV export: up to `chunkRows` rows after the cursor, oldest first
 * (created_at, id), through the table's (workspace_id, created_at, id) index, the header line
 * (after a byte-order mark) before the first. Each chunk seeks past the last row of the one
 * before by its values, not its id, so a row deleted between two chunks loses nothing; a row
 * created meanwhile comes in a later chunk or not at all, and none comes twice.
 */
export async function exportChunk(
  db: Queryable,
  caller: CallerContext,
  message: ExportChunkMessage,
  source: ExportSource,
  chunkRows: number,
): Promise<ExportChunk> {
  const { filters, columns: asked } = splitExportQuery(message.query);
  const filter = source.parse(filters);
  const after = message.after === undefined ? null : decodeExportCursor(message.after);
  const known = [...source.order, ...(await source.customKeys(db, caller.workspaceId))];
  const columns = chooseColumns(asked, known);
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length + 1}`;
  };
  const { alias } = source;
  const cells = columns.map(
    (column) => source.columns[column] ?? csvCellSql(source.custom?.(param(column)) ?? 'NULL'),
  );
  const conditions = [`${alias}.workspace_id = $1`, ...listConditions(alias, filter, param)];
  if (after) {
    conditions.push(
      `(${alias}.created_at, ${alias}.id) > (${param(after.createdAt)}::timestamptz, ${param(after.id)})`,
    );
  }
  const [chunk] = await queryRows<{
    rows: number;
    csv: string | null;
    last_id: string | null;
    last_at: string | null;
  }>(
    db,
    `WITH page AS (
       SELECT row_number() OVER (ORDER BY ${alias}.created_at, ${alias}.id) AS n,
         concat_ws(',', ${cells.join(', ')}) AS line, ${alias}.id,
         to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
       FROM ${source.from}
       WHERE ${conditions.join(' AND ')}
       ORDER BY ${alias}.created_at, ${alias}.id
       LIMIT ${chunkRows})
     SELECT count(*)::int AS rows, string_agg(line || chr(13) || chr(10), '' ORDER BY n) AS csv,
       (array_agg(id ORDER BY n DESC))[1] AS last_id,
       (array_agg(at ORDER BY n DESC))[1] AS last_at
     FROM page`,
    [caller.workspaceId, ...params],
  );
  const rows = chunk?.rows ?? 0;
  const header = after === null ? UTF8_BOM + csvLines([columns]) : '';
  return {
    csv: header + (chunk?.csv ?? ''),
    next:
      rows === chunkRows && chunk?.last_id && chunk.last_at
        ? encodeExportCursor({ createdAt: chunk.last_at, id: chunk.last_id })
        : null,
    rows,
  };
}

/** `to_char` of a timestamptz in UTC with milliseconds, as the API writes instants. */
export function isoSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
