import { SYSTEM_ACTOR } from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DueDateEngine, type DueNotice, type DueOutcome } from '../due-dates/due-date-engine';
import {
  bookingName,
  findBookingRow,
  lockBookingForNotice,
  markLapsed,
  toBooking,
} from './booking.store';
import { BOOKING_NO_SHOW, BOOKING_OVERDUE, noShowAt } from './bookings.service';

/**
 * The booking's dates, on the due-date engine (ADR 0020), each fired once:
 *
 * - `booking.overdue` at its end, armed by the check-out: still checked out then, it becomes
 *   `overdue` (its assets stay held; each asset's own `assignment.overdue` fires beside it).
 * - `booking.no_show` at its start plus the grace (bookings.no_show_at), armed when it is made:
 *   not checked out by then, confirmed or still requested (nobody approved it in time), it
 *   becomes `no_show` and its assets are free for others.
 *
 * A notice whose booking moved on (checked out, cancelled, dates changed) is obsolete.
 */
@Injectable()
export class BookingDueDates implements OnModuleInit {
  constructor(
    private readonly engine: DueDateEngine,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
  ) {}

  onModuleInit(): void {
    this.engine.handle(BOOKING_OVERDUE, (tx, notice) => this.lapse(tx, notice, 'overdue'));
    this.engine.handle(BOOKING_NO_SHOW, (tx, notice) => this.lapse(tx, notice, 'no_show'));
  }

  async lapse(
    tx: EntityManager,
    notice: DueNotice,
    status: 'overdue' | 'no_show',
  ): Promise<DueOutcome> {
    const workspaceId = notice.workspaceId;
    const row = await lockBookingForNotice(tx, workspaceId, notice.subjectId);
    if (row === 'busy') return 'busy';
    if (!row) return 'obsolete';
    const due =
      status === 'overdue'
        ? row.status === 'checked_out' && row.ends_at.getTime() === notice.dueAt.getTime()
        : (row.status === 'confirmed' || row.status === 'requested') &&
          (row.no_show_at ?? noShowAt(row.starts_at)).getTime() === notice.dueAt.getTime();
    if (!due) return 'obsolete';
    await markLapsed(tx, row.id, status);
    const booking = toBooking(await findBookingRow(tx, workspaceId, row.id));
    await this.outbox.write(
      tx,
      workspaceId,
      status === 'overdue' ? 'booking.overdue' : 'booking.no_show',
      booking,
    );
    await this.activity.record(tx, workspaceId, {
      source: 'system',
      actor: SYSTEM_ACTOR,
      recordType: 'booking',
      recordId: booking.id,
      recordName: bookingName(booking),
      action: status,
      relatedId: booking.person.id,
      relatedName: booking.person.name,
      changes: [{ field: 'status', from: row.status, to: status }],
    });
    return 'fired';
  }
}
