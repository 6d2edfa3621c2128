import { DomainError, type Reminder, type ReminderUnit } from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import type { ReminderEntity } from './reminder.entity';
import { occurrenceAt } from './occurrences';

/* register.reminders: its SQL, row type and view. */

export type ReminderRow = ReminderEntity & {
  asset_name: string | null;
  asset_tag: string | null;
  person_name: string | null;
  license_name: string | null;
};

/**
 * The names of what a reminder is about, as they are now: an asset in the bin keeps the name
 * it had there (its reminders outlive it until cancelled), a licence in the bin its own.
 */
const REMINDER_COLUMNS = `r.*,
  coalesce(a.name, d.name) AS asset_name, coalesce(a.asset_tag, d.asset_tag) AS asset_tag,
  p.full_name AS person_name, l.name AS license_name`;

const REMINDER_FROM = `register.reminders r
  LEFT JOIN register.assets a ON a.id = r.asset_id AND a.workspace_id = r.workspace_id
  LEFT JOIN register.deleted_assets d ON d.id = r.asset_id AND d.workspace_id = r.workspace_id
  LEFT JOIN register.people p ON p.id = r.person_id AND p.workspace_id = r.workspace_id
  LEFT JOIN register.licenses l ON l.id = r.license_id AND l.workspace_id = r.workspace_id`;

export function reminderNotFound(id: string): DomainError {
  return new DomainError('not_found', `Reminder ${id} not found`);
}

/** The reminder of the workspace; `forUpdate` locks its row first (writes, the engine). */
export async function findReminderRow(
  db: Queryable,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<ReminderRow> {
  if (id.length > 64 || id.includes('\u0000')) throw reminderNotFound(id);
  if (forUpdate) {
    await db.query(
      `SELECT 1 FROM register.reminders WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
      [id, workspaceId],
    );
  }
  const [row] = await queryRows<ReminderRow>(
    db,
    `SELECT ${REMINDER_COLUMNS} FROM ${REMINDER_FROM} WHERE r.id = $1 AND r.workspace_id = $2`,
    [id, workspaceId],
  );
  if (!row) throw reminderNotFound(id);
  return row;
}

export function repeatOf(row: ReminderEntity): { every: number; unit: ReminderUnit } | null {
  return row.repeat_every === null || row.repeat_unit === null
    ? null
    : { every: row.repeat_every, unit: row.repeat_unit as ReminderUnit };
}

/** The occurrence after `due_at` of a repeating reminder, or null. */
export function nextAfterDue(row: ReminderEntity): Date | null {
  const repeat = repeatOf(row);
  return repeat ? occurrenceAt(row.anchor_at, repeat, row.anchor_count + 1) : null;
}

export function toReminder(row: ReminderRow): Reminder {
  const next = row.status === 'scheduled' ? nextAfterDue(row) : null;
  return {
    id: row.id,
    title: row.title,
    notes: row.notes,
    status: row.status,
    due_at: row.due_at.toISOString(),
    repeat: repeatOf(row),
    next_due_at: next?.toISOString() ?? null,
    occurrences: row.occurrences,
    last_due_at: row.last_due_at?.toISOString() ?? null,
    asset:
      row.asset_id === null
        ? null
        : { id: row.asset_id, name: row.asset_name ?? '', asset_tag: row.asset_tag ?? '' },
    person: row.person_id === null ? null : { id: row.person_id, name: row.person_name ?? '' },
    license: row.license_id === null ? null : { id: row.license_id, name: row.license_name ?? '' },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export interface ReminderFilter {
  workspaceId: string;
  status?: string;
  assetId?: string;
  personId?: string;
  licenseId?: string;
  dueBefore?: string;
}

/** A page of the workspace's reminders, soonest first, and how many match. */
export async function reminderPage(
  db: Queryable,
  filter: ReminderFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: ReminderRow[]; total: number }> {
  const parameters: unknown[] = [filter.workspaceId];
  const clauses = ['r.workspace_id = $1'];
  const add = (clause: (at: string) => string, value: unknown) => {
    parameters.push(value);
    clauses.push(clause(`$${parameters.length}`));
  };
  if (filter.status) add((at) => `r.status = ${at}`, filter.status);
  else clauses.push(`r.status <> 'cancelled'`);
  if (filter.assetId) add((at) => `r.asset_id = ${at}`, filter.assetId);
  if (filter.personId) add((at) => `r.person_id = ${at}`, filter.personId);
  if (filter.licenseId) add((at) => `r.license_id = ${at}`, filter.licenseId);
  if (filter.dueBefore) add((at) => `r.due_at < ${at}::timestamptz`, filter.dueBefore);
  const where = clauses.join(' AND ');
  const [counted] = await queryRows<{ total: number }>(
    db,
    `SELECT count(*)::int AS total FROM register.reminders r WHERE ${where}`,
    parameters,
  );
  const rows = await queryRows<ReminderRow>(
    db,
    `SELECT ${REMINDER_COLUMNS} FROM ${REMINDER_FROM} WHERE ${where}
      ORDER BY r.due_at, r.id LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    parameters,
  );
  return { rows, total: counted?.total ?? 0 };
}

export type NewReminder = Pick<
  ReminderEntity,
  | 'id'
  | 'workspace_id'
  | 'title'
  | 'notes'
  | 'due_at'
  | 'repeat_every'
  | 'repeat_unit'
  | 'asset_id'
  | 'person_id'
  | 'license_id'
>;

export async function insertReminder(tx: EntityManager, row: NewReminder): Promise<void> {
  await tx.query(
    `INSERT INTO register.reminders (id, workspace_id, title, notes, due_at, anchor_at,
            repeat_every, repeat_unit, asset_id, person_id, license_id)
          VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10)`,
    [
      row.id,
      row.workspace_id,
      row.title,
      row.notes,
      row.due_at,
      row.repeat_every,
      row.repeat_unit,
      row.asset_id,
      row.person_id,
      row.license_id,
    ],
  );
}
