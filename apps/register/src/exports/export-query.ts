import { DomainError, type RawQuery } from '@custodian/contracts';

/** A chunk's place in the export: the last row's creation time (microseconds) and id. */
export interface ExportCursor {
  createdAt: string;
  id: string;
}

const CREATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeExportCursor(cursor: ExportCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeExportCursor(raw: string): ExportCursor {
  const [createdAt = '', id = '', ...rest] = Buffer.from(raw, 'base64url')
    .toString('utf8')
    .split('|');
  if (rest.length > 0 || !CREATED_AT.test(createdAt) || !/^[A-Za-z0-9_]{1,64}$/.test(id)) {
    throw new DomainError('invalid_input', 'after must be the cursor of the previous chunk');
  }
  return { createdAt, id };
}

/**
 * An export's query: the list's filters (parsed by the list's own parser) and `columns`, a
 * comma list of `known` column names (the standard ones and the custom fields' keys), in the
 * order the file is to have them; all of them without it. `page` and `pageSize` are no
 * parameters of an export, which streams every match.
 */
export function splitExportQuery(raw: RawQuery): {
  filters: RawQuery;
  columns: string | undefined;
} {
  const { columns, ...filters } = raw;
  for (const paging of ['page', 'pageSize', 'sort']) {
    if (paging in filters) {
      throw new DomainError(
        'invalid_input',
        `${paging} is not a parameter of an export: it streams every match, oldest first`,
      );
    }
  }
  if (Array.isArray(columns)) throw new DomainError('invalid_input', 'columns must be given once');
  return { filters, columns };
}

export function chooseColumns(raw: string | undefined, known: readonly string[]): string[] {
  if (raw === undefined) return [...known];
  const chosen = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  if (chosen.length === 0) throw new DomainError('invalid_input', 'columns must name a column');
  const unknown = chosen.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new DomainError(
      'invalid_input',
      `columns names ${unknown.length === 1 ? 'an unknown column' : 'unknown columns'}: ` +
        `${unknown.slice(0, 5).join(', ')} (the columns are ${known.join(', ')})`,
    );
  }
  const twice = chosen.find((name, i) => chosen.indexOf(name) !== i);
  if (twice) throw new DomainError('invalid_input', `columns names ${twice} twice`);
  return chosen;
}
