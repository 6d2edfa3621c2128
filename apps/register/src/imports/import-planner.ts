import {
  DomainError,
  type CallerContext,
  type ImportPlan,
  type ImportType,
} from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import { limitReachedMessage, wouldExceed } from '@custodian/plans';
import { fieldProblem, rowValues, type ColumnMap, type RowValues } from './import-rows';
import type { ImportRowRecord } from './import.store';

/** What the dry run says of a row. */
export interface RowDecision {
  plan: ImportPlan;
  /** The record it updates. */
  target_id: string | null;
  /** Why it is refused, or what it was matched by. */
  message: string | null;
  /** The identifier it is matched by (`asset_tag:X`), for the file's repeats. */
  match_key: string | null;
  values: RowValues | null;
}

/** The identifier a row is matched by, and its value: its id, else the first it gives. */
export function matchKeyOf(
  type: ImportType,
  values: RowValues,
): { field: string; value: string } | null {
  if (values.id !== null) return { field: 'id', value: values.id };
  const order = type === 'assets' ? ['asset_tag', 'serial_number'] : ['email', 'employee_number'];
  for (const field of order) {
    const value = values.fields[field];
    if (typeof value === 'string' && value !== '') {
      // E-mail addresses match in any case, as people's are compared.
      return { field, value: field === 'email' ? value.toLowerCase() : value };
    }
  }
  return null;
}

const TABLE: Record<ImportType, string> = { assets: 'register.assets', people: 'register.people' };
const NOUN: Record<ImportType, string> = { assets: 'asset', people: 'person' };
const SPOKEN: Record<string, string> = {
  id: 'id',
  asset_tag: 'asset tag',
  serial_number: 'serial number',
  email: 'e-mail',
  employee_number: 'employee number',
};

/**
 * The records of the workspace the rows' identifiers name: key (`asset_tag:X`) → their ids
 * (more than one: a serial number or employee number several records share). One statement
 * per identifier field for the whole batch.
 */
export async function recordsMatching(
  db: Queryable,
  type: ImportType,
  workspaceId: string,
  keys: ReadonlyArray<{ field: string; value: string }>,
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const byField = new Map<string, string[]>();
  for (const { field, value } of keys) byField.set(field, [...(byField.get(field) ?? []), value]);
  for (const [field, values] of byField) {
    const column = field === 'email' ? 'lower(email)' : field;
    const rows = await queryRows<{ value: string; ids: string[] }>(
      db,
      `SELECT ${column} AS value, array_agg(id ORDER BY id) AS ids FROM ${TABLE[type]}
       WHERE workspace_id = $1 AND ${column} = ANY($2::text[]) GROUP BY ${column}`,
      [workspaceId, [...new Set(values)]],
    );
    for (const row of rows) found.set(`${field}:${row.value}`, row.ids);
  }
  return found;
}

/**
 * The dry run of a batch of rows, in file order. A row is refused, naming the column, when a
 * cell is wrong for its field (as the API's body would be), when an earlier row of the file
 * names the same record, when its id names no record, when its identifier names several, or
 * when a record it would create passes the plan's limit; else it updates the record its
 * identifier names, or creates one. `creates`: the rows planned to create so far (earlier
 * batches), and `count`: the records the workspace holds now.
 */
export async function planRows(
  db: Queryable,
  importId: string,
  caller: CallerContext,
  map: ColumnMap,
  rows: readonly ImportRowRecord[],
  creates: number,
  count: number,
): Promise<RowDecision[]> {
  const type = map.type;
  const read = rows.map((row): RowValues | string => {
    try {
      return rowValues(map, row.cells);
    } catch (error) {
      if (error instanceof DomainError) return error.message;
      throw error;
    }
  });
  const keys = read.map((values) => (typeof values === 'string' ? null : matchKeyOf(type, values)));
  const matched = await recordsMatching(
    db,
    type,
    caller.workspaceId,
    keys.filter((key) => key !== null),
  );
  const keyText = keys.map((key) => (key ? `${key.field}:${key.value}` : null));
  const first = rows[0]?.row_number ?? 1;
  const earlier = new Map(
    (
      await queryRows<{ match_key: string; row_number: number }>(
        db,
        `SELECT match_key, min(row_number) AS row_number FROM register.import_rows
         WHERE import_id = $1 AND match_key = ANY($2::text[]) AND row_number < $3
         GROUP BY match_key`,
        [importId, keyText.filter((key) => key !== null), first],
      )
    ).map((row) => [row.match_key, row.row_number]),
  );
  const limit = caller.limits[type === 'assets' ? 'assets' : 'people'];
  let planned = creates;
  return rows.map((row, i): RowDecision => {
    const values = read[i] ?? 'the row could not be read';
    const key = keys[i] ?? null;
    const match_key = keyText[i] ?? null;
    const refuse = (message: string): RowDecision => ({
      plan: 'refuse',
      target_id: null,
      message,
      match_key,
      values: typeof values === 'string' ? null : values,
    });
    if (typeof values === 'string') return refuse(values);
    if (key && match_key) {
      const before = earlier.get(match_key);
      if (before !== undefined) {
        return refuse(
          `${SPOKEN[key.field]} ${key.value} is on row ${before} of this file already: one row ` +
            `per ${NOUN[type]}`,
        );
      }
      earlier.set(match_key, row.row_number);
    }
    const ids = match_key ? (matched.get(match_key) ?? []) : [];
    const [target] = ids;
    if (key && ids.length > 1) {
      return refuse(
        `${ids.length} ${type} have the ${SPOKEN[key.field]} ${key.value}: give the id column ` +
          'to say which',
      );
    }
    if (key && target !== undefined) {
      const problem = fieldProblem(type, values.fields, false);
      if (problem) return refuse(problem);
      return {
        plan: 'update',
        target_id: target,
        message: `matched by ${SPOKEN[key.field]} ${key.value}`,
        match_key,
        values,
      };
    }
    if (key?.field === 'id') return refuse(`id ${key.value} is no ${NOUN[type]} of this workspace`);
    const problem = fieldProblem(type, values.fields, true);
    if (problem) return refuse(problem);
    if (wouldExceed(limit, count + planned)) {
      return refuse(
        limitReachedMessage(type === 'assets' ? 'assets' : 'people', limit ?? 0, caller.plan),
      );
    }
    planned += 1;
    return { plan: 'create', target_id: null, message: null, match_key, values };
  });
}
