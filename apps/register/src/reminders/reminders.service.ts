import { assertIfMatch } from '@custodian/messaging';
import {
  DomainError,
  REMINDER_PAGE_SIZE_DEFAULT,
  REMINDER_PAGE_SIZE_MAX,
  callerActivity,
  type ActivityChange,
  type CallerContext,
  type CreateReminderInput,
  type Page,
  type Reminder,
  type ReminderListQuery,
  type UpdateReminderInput,
} from '@custodian/contracts';
import { ActivityLog, changedFields, newId, queryRows } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { pageParams } from '../listing/page-params';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { armReminder, cancelReminder } from './reminder-due';
import { findReminderRow, insertReminder, reminderPage, toReminder } from './reminder.store';

/** How far in the past a new due_at may be and still count as now (a client's clock skew). */
const SKEW_MS = 60_000;

/**
 * Reminders: a title at `due_at`, once or repeating, about an asset, a person, a licence or
 * nothing. Each occurrence is a due-date notice (reminder-due.ts) armed in the transaction of
 * the write that sets it; the engine fires `reminder.due` and schedules the next. The writes
 * fire no event of their own (the catalog has none); they are in the activity feed.
 */
@Injectable()
export class RemindersService {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly activity: ActivityLog,
  ) {}

  get(caller: CallerContext, id: string): Promise<Reminder> {
    return this.reads.run(async (db) =>
      toReminder(await findReminderRow(db, caller.workspaceId, id)),
    );
  }

  list(caller: CallerContext, query: ReminderListQuery): Promise<Page<Reminder>> {
    const { page, pageSize } = pageParams(
      query,
      REMINDER_PAGE_SIZE_DEFAULT,
      REMINDER_PAGE_SIZE_MAX,
    );
    return this.reads.heavy(async (db) => {
      const { rows, total } = await reminderPage(
        db,
        {
          workspaceId: caller.workspaceId,
          ...(query.status ? { status: query.status } : {}),
          ...(query.asset_id ? { assetId: query.asset_id } : {}),
          ...(query.person_id ? { personId: query.person_id } : {}),
          ...(query.license_id ? { licenseId: query.license_id } : {}),
          ...(query.due_before ? { dueBefore: query.due_before } : {}),
        },
        page,
        pageSize,
      );
      return { data: rows.map(toReminder), page, pageSize, total };
    });
  }

  create(
    caller: CallerContext,
    input: CreateReminderInput,
    now: Date = new Date(),
  ): Promise<Reminder> {
    const about = [input.asset_id, input.person_id, input.license_id].filter(Boolean);
    if (about.length > 1) {
      throw new DomainError(
        'invalid_input',
        'Send at most one of asset_id, person_id and license_id: a reminder is about one record',
      );
    }
    const dueAt = futureDue(input.due_at, now);
    return this.writes.run(caller.workspaceId, (tx) => this.createIn(tx, caller, input, dueAt));
  }

  /**
   * POST /reminders inside a transaction someone else runs (a maintenance record's repeating
   * reminder): the same row, notice and feed entry, rolled back with the caller's work.
   */
  async createIn(
    tx: EntityManager,
    caller: CallerContext,
    input: CreateReminderInput,
    dueAt: Date = new Date(input.due_at),
  ): Promise<Reminder> {
    const workspaceId = caller.workspaceId;
    await assertSubject(tx, workspaceId, input);
    const id = newId('rem');
    await insertReminder(tx, {
      id,
      workspace_id: workspaceId,
      title: input.title.trim(),
      notes: input.notes ?? null,
      due_at: dueAt,
      repeat_every: input.repeat?.every ?? null,
      repeat_unit: input.repeat?.unit ?? null,
      asset_id: input.asset_id ?? null,
      person_id: input.person_id ?? null,
      license_id: input.license_id ?? null,
    });
    // Its notice right after its row (ADR 0020): the new row is this transaction's alone.
    await armReminder(tx, workspaceId, id, dueAt);
    const reminder = toReminder(await findReminderRow(tx, workspaceId, id));
    await this.record(tx, caller, reminder, 'created', reminderChanges(null, reminder));
    return reminder;
  }

  /** `ifMatch`: the client's If-Match, checked against the reminder under its row lock. */
  update(
    caller: CallerContext,
    id: string,
    input: UpdateReminderInput,
    ifMatch?: readonly string[],
    now: Date = new Date(),
  ): Promise<Reminder> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const current = await findReminderRow(tx, workspaceId, id, true);
      assertIfMatch(ifMatch, toReminder(current), `Reminder ${id}`);
      if (current.status !== 'scheduled') {
        throw new DomainError(
          'conflict',
          `Reminder ${current.title} (${id}) is ${current.status}; create a new one instead`,
        );
      }
      const sets: string[] = [];
      const params: unknown[] = [id];
      const set = (column: string, value: unknown) => {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      };
      if (input.title !== undefined) set('title', input.title.trim());
      if (input.notes !== undefined) set('notes', input.notes);
      const dueAt = input.due_at === undefined ? null : futureDue(input.due_at, now);
      if (dueAt !== null || input.repeat !== undefined) {
        // A new date or rhythm counts again from the new (or current) date; its notice moves
        // right after the row's lock (ADR 0020).
        const anchor = dueAt ?? current.due_at;
        set('due_at', anchor);
        set('anchor_at', anchor);
        set('anchor_count', 0);
        if (input.repeat !== undefined) {
          set('repeat_every', input.repeat?.every ?? null);
          set('repeat_unit', input.repeat?.unit ?? null);
        }
        await armReminder(tx, workspaceId, id, anchor);
      }
      if (sets.length === 0) return toReminder(current);
      await tx.query(
        `UPDATE register.reminders SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`,
        params,
      );
      const before = toReminder(current);
      const reminder = toReminder(await findReminderRow(tx, workspaceId, id));
      const changes = reminderChanges(before, reminder);
      if (changes.length > 0) await this.record(tx, caller, reminder, 'updated', changes);
      return reminder;
    });
  }

  /** DELETE /reminders/{id}: cancelled, nothing more fires; kept for the record. */
  cancel(caller: CallerContext, id: string, ifMatch?: readonly string[]): Promise<Reminder> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const current = await findReminderRow(tx, workspaceId, id, true);
      assertIfMatch(ifMatch, toReminder(current), `Reminder ${id}`);
      if (current.status === 'cancelled') return toReminder(current);
      await cancelReminder(tx, workspaceId, id);
      await tx.query(
        `UPDATE register.reminders SET status = 'cancelled', updated_at = now() WHERE id = $1`,
        [id],
      );
      const reminder = toReminder(await findReminderRow(tx, workspaceId, id));
      await this.record(tx, caller, reminder, 'cancelled', [
        { field: 'status', from: current.status, to: 'cancelled' },
      ]);
      return reminder;
    });
  }

  private record(
    tx: EntityManager,
    caller: CallerContext,
    reminder: Reminder,
    action: 'created' | 'updated' | 'cancelled',
    changes: ActivityChange[],
  ): Promise<void> {
    const related = reminder.asset ?? reminder.person ?? reminder.license;
    return this.activity.record(tx, caller.workspaceId, {
      ...callerActivity(caller),
      recordType: 'reminder',
      recordId: reminder.id,
      recordName: reminder.title,
      action,
      relatedId: related?.id ?? null,
      relatedName: related?.name ?? null,
      changes,
    });
  }
}

/** A due_at in the future (a minute of skew allowed), or a 400 naming it. */
function futureDue(raw: string, now: Date): Date {
  const at = new Date(raw);
  if (at.getTime() < now.getTime() - SKEW_MS) {
    throw new DomainError('invalid_input', `due_at must be in the future (it is ${raw})`);
  }
  return at;
}

/** What the reminder is about must be of the workspace (an asset out of the bin). */
async function assertSubject(
  tx: EntityManager,
  workspaceId: string,
  input: CreateReminderInput,
): Promise<void> {
  const checks = [
    { id: input.asset_id, field: 'asset_id', what: 'asset', table: 'assets', extra: '' },
    { id: input.person_id, field: 'person_id', what: 'person', table: 'people', extra: '' },
    {
      id: input.license_id,
      field: 'license_id',
      what: 'licence',
      table: 'licenses',
      extra: 'AND deleted_at IS NULL',
    },
  ];
  for (const check of checks) {
    if (check.id === undefined) continue;
    const [found] = await queryRows<{ id: string }>(
      tx,
      `SELECT id FROM register.${check.table} WHERE id = $1 AND workspace_id = $2 ${check.extra}`,
      [check.id, workspaceId],
    );
    if (!found) {
      throw new DomainError('invalid_input', `${check.field}: ${check.what} ${check.id} not found`);
    }
  }
}

function reminderChanges(before: Reminder | null, after: Reminder): ActivityChange[] {
  return changedFields(before, after, {
    title: (reminder) => reminder.title,
    notes: (reminder) => reminder.notes,
    due_at: (reminder) => reminder.due_at,
    repeat: (reminder) =>
      reminder.repeat ? `every ${reminder.repeat.every} ${reminder.repeat.unit}` : null,
  });
}
