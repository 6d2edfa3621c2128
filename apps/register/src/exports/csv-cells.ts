import { stringify } from 'csv-stringify/sync';

/** Excel and others read a UTF-8 file as such when it starts with this mark. */
export const UTF8_BOM = '\ufeff';

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[-+]?\d+(\.\d+)?$/;

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
 * first) gets an apostrophe before it, as OWASP advises for CSV files people open; numbers
 * (`-5`) stay as they are. An import takes the apostrophe off again (plainCell).
 */
export function safeCell(value: string): string {
  return FORMULA_START.test(value) && !NUMBER.test(value) ? `'${value}` : value;
}

/** safeCell undone: what an import stores for a cell of an export. */
export function plainCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** RFC 4180 lines (CRLF, quotes where needed), each cell made safe. */
export function csvLines(rows: ReadonlyArray<ReadonlyArray<string>>): string {
  if (rows.length === 0) return '';
  return stringify(
    rows.map((row) => row.map(safeCell)),
    // A lone \n or \r is no record delimiter to csv-stringify, but is to every reader: quoted.
    { record_delimiter: 'windows', quoted_match: /[\r\n]/ },
  );
}
