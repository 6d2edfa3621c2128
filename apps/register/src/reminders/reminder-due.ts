import { SYSTEM_ACTOR, type Reminder } from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DueDateEngine, type DueNotice, type DueOutcome } from '../due-dates/due-date-engine';
import {
  armNotice,
  cancelNotices,
  lockNoticeSubject,
  markFired,
  type DueSubject,
} from '../due-dates/due-notice.store';
import { findReminderRow, nextAfterDue, toReminder } from './reminder.store';

export const REMINDER_DUE = 'reminder.due';

function subject(workspaceId: string, reminderId: string): DueSubject {
  return { workspaceId, type: 'reminder', id: reminderId };
}

/** Arms the reminder's occurrence at `dueAt` (another armed date of it is cancelled). */
export async function armReminder(
  tx: EntityManager,
  workspaceId: string,
  reminderId: string,
  dueAt: Date,
): Promise<void> {
  await armNotice(tx, subject(workspaceId, reminderId), REMINDER_DUE, dueAt);
}

export async function cancelReminder(
  tx: EntityManager,
  workspaceId: string,
  reminderId: string,
): Promise<void> {
  await cancelNotices(tx, subject(workspaceId, reminderId), REMINDER_DUE);
}

/**
 * Fires `reminder.due` at each occurrence, once: the handler of the due-date engine's
 * `reminder.due` notices, in the engine's claiming transaction. The reminder's row is locked
 * (a write holding it: busy, tried again), the event and the feed entry written, and a
 * repeating reminder moved to its next occurrence with that notice armed, all in the one
 * commit; a one-off is done. Occurrences missed while no register ran fire one per sweep, in
 * order, each once.
 */
@Injectable()
export class ReminderDueDates implements OnModuleInit {
  constructor(
    private readonly engine: DueDateEngine,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
  ) {}

  onModuleInit(): void {
    this.engine.handle(REMINDER_DUE, (tx, notice) => this.fire(tx, notice));
  }

  async fire(tx: EntityManager, notice: DueNotice): Promise<DueOutcome> {
    const workspaceId = notice.workspaceId;
    const locked = await lockNoticeSubject<{ id: string }>(tx, notice, 'register.reminders', 'id');
    if (typeof locked === 'string') return locked;
    const row = await findReminderRow(tx, workspaceId, notice.subjectId);
    if (row.status !== 'scheduled' || row.due_at.getTime() !== notice.dueAt.getTime()) {
      return 'obsolete';
    }
    const next = nextAfterDue(row);
    const data: Reminder = {
      ...toReminder(row),
      occurrences: row.occurrences + 1,
      last_due_at: row.due_at.toISOString(),
    };
    await this.outbox.write(tx, workspaceId, REMINDER_DUE, data);
    const related = data.asset ?? data.person ?? data.license;
    await this.activity.record(tx, workspaceId, {
      source: 'system',
      actor: SYSTEM_ACTOR,
      recordType: 'reminder',
      recordId: row.id,
      recordName: row.title,
      action: 'due',
      relatedId: related?.id ?? null,
      relatedName: related?.name ?? null,
      changes: [{ field: 'due_at', from: null, to: data.due_at }],
    });
    await tx.query(
      `UPDATE register.reminders
          SET occurrences = occurrences + 1, last_due_at = due_at,
              anchor_count = anchor_count + 1,
              due_at = coalesce($2, due_at),
              status = CASE WHEN $2::timestamptz IS NULL THEN 'done' ELSE status END,
              updated_at = now()
        WHERE id = $1`,
      [row.id, next],
    );
    if (next) {
      // This notice is marked fired first: arming another date of the kind cancels the armed
      // ones, and it is still armed until the engine settles it after this handler.
      await markFired(tx, notice.id, new Date());
      await armReminder(tx, workspaceId, row.id, next);
    }
    return 'fired';
  }
}
