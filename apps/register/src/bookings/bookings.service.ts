import {
  BOOKING_DAYS_MAX,
  BOOKING_NO_SHOW_GRACE_MINUTES,
  BOOKING_PAGE_SIZE_DEFAULT,
  BOOKING_PAGE_SIZE_MAX,
  DomainError,
  callerActivity,
  type ActivityChange,
  type AssetAvailability,
  type AvailabilityQuery,
  type Booking,
  type BookingListQuery,
  type BookingSettings,
  type BookingStatus,
  type CallerContext,
  type CancelBookingInput,
  type CheckInBookingInput,
  type CreateBookingInput,
  type Page,
  type RejectBookingInput,
  type UpdateBookingInput,
  type UpdateBookingSettingsInput,
} from '@custodian/contracts';
import { OutboxWriter, assertIfMatch } from '@custodian/messaging';
import { ActivityLog, changedFields, newId, queryRows } from '@custodian/persistence';
import { AVAILABILITY_ASSET } from '@custodian/register-sql';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { assetChanges } from '../activity/record-changes';
import {
  findAssetRow,
  handOut,
  lockAssets,
  moveDue,
  takeBack,
  toDetail,
} from '../assets/asset.store';
import { writeCustodyEvent } from '../assets/assets.service';
import { armOverdue } from '../assets/assignment-overdue';
import { armNotice, cancelNotices, type DueSubject } from '../due-dates/due-notice.store';
import { pageParams } from '../listing/page-params';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import {
  bookingPage,
  busyIntervals,
  cancelBooking,
  conflictsWith,
  findBookingRow,
  holdFrom,
  insertBooking,
  isBookingOverlap,
  markCheckedOut,
  markConfirmed,
  markReturned,
  moveBooking,
  moveEnd,
  updateNotes,
  bookingName,
  toBooking,
  type BookingRow,
  type ConflictRow,
} from './booking.store';
import { bookingSettings, writeBookingSettings } from './booking-settings.store';
import { mayApprove, notAllowed } from './booking-roles';

/** The due-date kinds of a booking: the events they fire (booking-due-dates.ts). */
export const BOOKING_OVERDUE = 'booking.overdue';
export const BOOKING_NO_SHOW = 'booking.no_show';

export function bookingSubject(workspaceId: string, bookingId: string): DueSubject {
  return { workspaceId, type: 'booking', id: bookingId };
}

/**
 * When a booking not checked out becomes a no-show: its start plus the workspace's grace when
 * it was made or moved (bookings.no_show_at); the 60 minutes of the version before for a row
 * it wrote.
 */
export function noShowAt(
  startsAt: Date,
  graceMinutes: number = BOOKING_NO_SHOW_GRACE_MINUTES,
): Date {
  return new Date(startsAt.getTime() + graceMinutes * 60_000);
}

const DAY_MS = 86_400_000;
/** An asset in one of these cannot be booked: it is not there to hand out. */
const UNBOOKABLE = new Set(['retired', 'lost', 'stolen', 'inactive']);
/** Bookings a 409 names at most; it says how many more. */
const CONFLICTS_NAMED = 10;

interface BookableAsset {
  id: string;
  name: string;
  status: string;
  assigned_to_id: string | null;
  custody_due_at: Date | null;
}

/**
 * Bookings: assets held for a person over a range. The database refuses two holding bookings
 * of one asset whose ranges overlap (booking_assets_no_overlap), so the rule holds however many
 * requests race; this service checks what it can say better first (the assets, the person, a
 * current check-out due after the start) and turns the constraint's refusal into a 409 that
 * names each conflicting booking, asset and range.
 *
 * Approval (the workspace's booking settings): a booking made by someone who may confirm
 * (a write key, a manager and above) is confirmed at once, `booking.created` then
 * `booking.confirmed`; with `approval_required`, a member's is `requested` (`booking.created`
 * then `booking.requested`), holds its slot, and waits for confirm or reject. Every booking
 * that becomes confirmed fires `booking.confirmed` once: a member may not move a confirmed
 * booking's dates or assets while approval is on (it would need confirming again).
 */
@Injectable()
export class BookingsService {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
  ) {}

  get(caller: CallerContext, id: string): Promise<Booking> {
    return this.reads.run(async (db) =>
      toBooking(await findBookingRow(db, caller.workspaceId, id)),
    );
  }

  async list(caller: CallerContext, query: BookingListQuery): Promise<Page<Booking>> {
    const { page, pageSize } = pageParams(query, BOOKING_PAGE_SIZE_DEFAULT, BOOKING_PAGE_SIZE_MAX);
    return this.reads.heavy(async (db) => {
      const { rows, total } = await bookingPage(
        db,
        {
          workspaceId: caller.workspaceId,
          ...(query.from ? { from: new Date(query.from) } : {}),
          ...(query.to ? { to: new Date(query.to) } : {}),
          ...(query.asset_id ? { assetId: query.asset_id } : {}),
          ...(query.person_id ? { personId: query.person_id } : {}),
          ...(query.status ? { status: query.status } : {}),
        },
        page,
        pageSize,
      );
      return { data: rows.map(toBooking), page, pageSize, total };
    });
  }

  /** When the asset is taken within the range: what a booking there would run into. */
  async availability(
    caller: CallerContext,
    assetId: string,
    query: AvailabilityQuery,
  ): Promise<AssetAvailability> {
    const from = query.from ? new Date(query.from) : new Date();
    const to = query.to ? new Date(query.to) : new Date(from.getTime() + 30 * DAY_MS);
    if (to <= from) throw new DomainError('invalid_input', 'to must be after from');
    if (to.getTime() - from.getTime() > BOOKING_DAYS_MAX * DAY_MS) {
      throw new DomainError(
        'invalid_input',
        `to must be at most ${BOOKING_DAYS_MAX} days after from`,
      );
    }
    const notFound = new DomainError('not_found', `Asset ${assetId} not found`);
    if (assetId.length > 64 || assetId.includes('\u0000')) throw notFound;
    // A cheap read, as a fetch by id (ADR 0014): two index lookups of one asset, whatever
    // the workspace's size, so it skips the heavy lane's admission.
    return this.reads.run(async (db) => {
      const [asset] = await queryRows<{ id: string; name: string; asset_tag: string }>(
        db,
        AVAILABILITY_ASSET,
        [assetId, caller.workspaceId],
      );
      if (!asset) throw notFound;
      const busy = await busyIntervals(db, caller.workspaceId, asset.id, from, to);
      return {
        asset,
        from: from.toISOString(),
        to: to.toISOString(),
        busy: busy.map((row) => ({
          from: row.from.toISOString(),
          to: row.to?.toISOString() ?? null,
          kind: row.kind,
          booking_id: row.booking_id,
          status: row.status,
          person: { id: row.person_id, name: row.person_name },
        })),
      };
    });
  }

  async create(caller: CallerContext, input: CreateBookingInput): Promise<Booking> {
    try {
      return await this.writes.run(caller.workspaceId, (tx) => this.createIn(tx, caller, input));
    } catch (error) {
      throw await this.overlapRefused(error, caller.workspaceId, input);
    }
  }

  /**
   * POST /bookings inside a transaction someone else runs (an approved request books its
   * asset with the request's approval). The caller's transaction is gone when the exclusion
   * constraint refuses the rows: it passes the error to `overlapRefused` after it.
   */
  async createIn(
    tx: EntityManager,
    caller: CallerContext,
    input: CreateBookingInput,
    made: { id?: string; createdBy?: string | null } = {},
  ): Promise<Booking> {
    const startsAt = new Date(input.starts_at);
    const endsAt = new Date(input.ends_at);
    checkRange(startsAt, endsAt);
    // Sorted: two bookings of the same assets insert their rows in one order (no deadlock).
    const assetIds = [...new Set(input.asset_ids)].sort();
    if (assetIds.length !== input.asset_ids.length) {
      throw new DomainError('invalid_input', 'asset_ids must name each asset once');
    }
    const workspaceId = caller.workspaceId;
    const settings = await bookingSettings(tx, workspaceId);
    const confirmed = !settings.approval_required || (await mayApprove(tx, caller));
    const person = await this.bookablePerson(tx, workspaceId, input.person_id);
    await this.checkAssets(tx, workspaceId, assetIds, startsAt);
    const id = made.id ?? newId('bkg');
    const noShow = noShowAt(startsAt, settings.no_show_grace_minutes);
    await insertBooking(
      tx,
      {
        id,
        workspace_id: workspaceId,
        person_id: person.id,
        status: confirmed ? 'confirmed' : 'requested',
        starts_at: startsAt,
        ends_at: endsAt,
        notes: input.notes ?? null,
        no_show_at: noShow,
        created_by: made.createdBy === undefined ? caller.keyId : made.createdBy,
      },
      assetIds,
    );
    // Not checked out by its start and the grace: a no-show, confirmed or still requested
    // (booking-due-dates.ts).
    await armNotice(tx, bookingSubject(workspaceId, id), BOOKING_NO_SHOW, noShow);
    const booking = toBooking(await findBookingRow(tx, workspaceId, id));
    await this.outbox.write(tx, workspaceId, 'booking.created', booking);
    await this.outbox.write(
      tx,
      workspaceId,
      confirmed ? 'booking.confirmed' : 'booking.requested',
      booking,
    );
    await this.record(tx, caller, booking, 'created');
    return booking;
  }

  /**
   * The error to answer for a failed create: the exclusion constraint's refusal becomes a 409
   * naming each conflicting booking, asset and range (read afresh: the transaction is gone, so
   * these are the committed bookings the caller must move around); anything else as it was.
   */
  async overlapRefused(
    error: unknown,
    workspaceId: string,
    input: Pick<CreateBookingInput, 'asset_ids' | 'starts_at' | 'ends_at'>,
  ): Promise<unknown> {
    if (!isBookingOverlap(error)) return error;
    const conflicts = await this.reads.run((db) =>
      conflictsWith(
        db,
        workspaceId,
        [...new Set(input.asset_ids)].sort(),
        new Date(input.starts_at),
        new Date(input.ends_at),
      ),
    );
    return new DomainError('conflict', conflictMessage(conflicts));
  }

  /** A requested booking is confirmed by a manager and above: `booking.confirmed`, once. */
  confirm(caller: CallerContext, id: string): Promise<Booking> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const row = await findBookingRow(tx, workspaceId, id, true);
      if (!(await mayApprove(tx, caller))) throw notAllowed('confirm a booking');
      if (row.status !== 'requested') {
        throw new DomainError(
          'conflict',
          `Booking ${id} is ${row.status.replace('_', ' ')}; only a requested booking can be ` +
            'confirmed',
        );
      }
      if (row.ends_at.getTime() <= Date.now()) {
        throw new DomainError(
          'conflict',
          `Booking ${id} ended at ${row.ends_at.toISOString()}; it can no longer be confirmed`,
        );
      }
      await markConfirmed(tx, row.id);
      const booking = toBooking(await findBookingRow(tx, workspaceId, id));
      await this.outbox.write(tx, workspaceId, 'booking.confirmed', booking);
      await this.record(tx, caller, booking, 'confirmed', row.status);
      return booking;
    });
  }

  /**
   * A requested booking is refused by a manager and above, with the reason its asker sees:
   * `booking.cancelled` with `cancellation.reason: rejected`; its slot is free again.
   */
  reject(caller: CallerContext, id: string, input: RejectBookingInput): Promise<Booking> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const row = await findBookingRow(tx, workspaceId, id, true);
      if (!(await mayApprove(tx, caller))) throw notAllowed('reject a booking');
      if (row.status !== 'requested') {
        throw new DomainError(
          'conflict',
          `Booking ${id} is ${row.status.replace('_', ' ')}; only a requested booking can be ` +
            'rejected (cancel a confirmed one)',
        );
      }
      await cancelNotices(tx, bookingSubject(workspaceId, row.id));
      await cancelBooking(tx, row.id, 'rejected', input.note.trim());
      const booking = toBooking(await findBookingRow(tx, workspaceId, id));
      await this.outbox.write(tx, workspaceId, 'booking.cancelled', booking);
      await this.record(tx, caller, booking, 'rejected', row.status);
      return booking;
    });
  }

  /**
   * Moves a booking or changes its notes. Before check-out its assets, start and end may
   * change (the database refuses an overlap, a 409 naming it; the no-show date follows the
   * start); once handed out only its end (each asset's due date and overdue date follow,
   * `asset.updated` each) and its notes. The spec has no `booking.updated`: the change is in
   * the feed and in the next event of the booking.
   */
  /** `ifMatch`: the client's If-Match, checked against the booking under its row lock. */
  async update(
    caller: CallerContext,
    id: string,
    input: UpdateBookingInput,
    ifMatch?: readonly string[],
  ): Promise<Booking> {
    const workspaceId = caller.workspaceId;
    let assetIds: string[] = [];
    let range: [Date, Date] | undefined;
    try {
      return await this.writes.run(workspaceId, async (tx) => {
        const row = await findBookingRow(tx, workspaceId, id, true);
        assertIfMatch(ifMatch, toBooking(row), `Booking ${id}`);
        const approver = await mayApprove(tx, caller);
        if (!approver && row.created_by !== caller.keyId) {
          throw notAllowed('change a booking someone else made');
        }
        const notes = input.notes === undefined ? row.notes : input.notes;
        const moves =
          input.asset_ids !== undefined ||
          input.starts_at !== undefined ||
          input.ends_at !== undefined;
        if (row.status === 'requested' || row.status === 'confirmed') {
          if (moves && row.status === 'confirmed' && !approver) {
            const settings = await bookingSettings(tx, workspaceId);
            if (settings.approval_required) {
              throw notAllowed(
                'move a confirmed booking while bookings need approval; change its notes, or ' +
                  'cancel it and book again',
              );
            }
          }
          const startsAt = input.starts_at ? new Date(input.starts_at) : row.starts_at;
          const endsAt = input.ends_at ? new Date(input.ends_at) : row.ends_at;
          assetIds = [...(input.asset_ids ?? row.assets.map((asset) => asset.id))].sort();
          range = [startsAt, endsAt];
          if (!moves) await updateNotes(tx, row.id, notes);
          else {
            checkRange(startsAt, endsAt);
            const subject = bookingSubject(workspaceId, row.id);
            let noShow = row.no_show_at ?? noShowAt(row.starts_at);
            if (startsAt.getTime() !== row.starts_at.getTime()) {
              const settings = await bookingSettings(tx, workspaceId);
              noShow = noShowAt(startsAt, settings.no_show_grace_minutes);
              await armNotice(tx, subject, BOOKING_NO_SHOW, noShow);
            }
            await this.checkAssets(tx, workspaceId, assetIds, startsAt);
            await moveBooking(tx, {
              id: row.id,
              workspaceId,
              startsAt,
              endsAt,
              noShowAt: noShow,
              notes,
              assetIds,
            });
          }
        } else if (row.status === 'checked_out' || row.status === 'overdue') {
          if (input.asset_ids !== undefined || input.starts_at !== undefined) {
            throw new DomainError(
              'conflict',
              `Booking ${id} is ${row.status.replace('_', ' ')}; only its ends_at and notes can ` +
                'change (check assets in, or make a new booking)',
            );
          }
          if (!input.ends_at) await updateNotes(tx, row.id, notes);
          else await this.moveEnd(tx, caller, row, new Date(input.ends_at), notes);
        } else {
          throw new DomainError(
            'conflict',
            `Booking ${id} is ${row.status.replace('_', ' ')} and can no longer change`,
          );
        }
        const booking = toBooking(await findBookingRow(tx, workspaceId, id));
        await this.record(tx, caller, booking, 'updated', row.status, toBooking(row));
        return booking;
      });
    } catch (error) {
      if (!isBookingOverlap(error) || !range) throw error;
      const [startsAt, endsAt] = range;
      const conflicts = await this.reads.run((db) =>
        conflictsWith(db, workspaceId, assetIds, startsAt, endsAt, id),
      );
      throw new DomainError('conflict', conflictMessage(conflicts));
    }
  }

  getSettings(caller: CallerContext): Promise<BookingSettings> {
    return this.reads.run((db) => bookingSettings(db, caller.workspaceId));
  }

  /** Admins and owners, and write keys, change them (the gateway checks who may call). */
  updateSettings(
    caller: CallerContext,
    input: UpdateBookingSettingsInput,
  ): Promise<BookingSettings> {
    if (input.approval_required === undefined && input.no_show_grace_minutes === undefined) {
      throw new DomainError(
        'invalid_input',
        'Send approval_required, no_show_grace_minutes, or both',
      );
    }
    return this.writes.run(caller.workspaceId, (tx) =>
      writeBookingSettings(tx, caller.workspaceId, input),
    );
  }

  /** Before its assets are handed out: frees its range and fires `booking.cancelled`. */
  cancel(caller: CallerContext, id: string, input: CancelBookingInput): Promise<Booking> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const row = await findBookingRow(tx, workspaceId, id, true);
      if (row.created_by !== caller.keyId && !(await mayApprove(tx, caller))) {
        throw notAllowed('cancel a booking someone else made');
      }
      if (row.status !== 'requested' && row.status !== 'confirmed') {
        throw new DomainError(
          'conflict',
          `Booking ${id} is ${row.status.replace('_', ' ')}; only a requested or confirmed ` +
            'booking can be cancelled',
        );
      }
      await cancelNotices(tx, bookingSubject(workspaceId, row.id));
      await cancelBooking(tx, row.id, 'cancelled', input.note ?? null);
      const booking = toBooking(await findBookingRow(tx, workspaceId, id));
      await this.outbox.write(tx, workspaceId, 'booking.cancelled', booking);
      await this.record(tx, caller, booking, 'cancelled', row.status);
      return booking;
    });
  }

  /**
   * Hands the booking's assets to its person, due back at its end: the check-out a person
   * would make by hand on each asset (asset.updated and assignment.checked_out each, with its
   * overdue date), then `booking.checked_out`. Before its start it is an early check-out: the
   * booking then holds its assets from now, which another booking in between refuses (409).
   */
  async checkOut(caller: CallerContext, id: string, now = new Date()): Promise<Booking> {
    const workspaceId = caller.workspaceId;
    let held: BookingRow | undefined;
    try {
      return await this.writes.run(workspaceId, async (tx) => {
        const row = await findBookingRow(tx, workspaceId, id, true);
        held = row;
        if (!(await mayApprove(tx, caller))) throw notAllowed('hand out a booking');
        if (row.status !== 'confirmed') {
          throw new DomainError(
            'conflict',
            `Booking ${id} is ${row.status.replace('_', ' ')}; only a confirmed booking can be ` +
              'checked out',
          );
        }
        if (now >= row.ends_at) {
          throw new DomainError(
            'conflict',
            `Booking ${id} ended at ${row.ends_at.toISOString()}; make a new booking instead`,
          );
        }
        const assetIds = row.assets.map((asset) => asset.id).sort();
        const locked = await lockAssets(tx, workspaceId, assetIds);
        const found = new Map(locked.map((asset) => [asset.id, asset]));
        const problems: string[] = [];
        for (const assetId of assetIds) {
          const asset = found.get(assetId);
          if (!asset) problems.push(`asset ${assetId} is no longer in the register`);
          else if (UNBOOKABLE.has(asset.status)) {
            problems.push(`${asset.name} (${assetId}) is ${asset.status}`);
          } else if (asset.assigned_to_id !== null) {
            problems.push(`${asset.name} (${assetId}) is checked out; check it in first`);
          }
        }
        if (problems.length > 0) throw new DomainError('conflict', problems.join('; '));
        // The dates first, right after the locks (ADR 0020): each asset's overdue and the
        // booking's at its end; the no-show no longer applies.
        for (const assetId of assetIds) await armOverdue(tx, workspaceId, assetId, row.ends_at);
        const subject = bookingSubject(workspaceId, id);
        await cancelNotices(tx, subject, BOOKING_NO_SHOW);
        await armNotice(tx, subject, BOOKING_OVERDUE, row.ends_at);
        if (now < row.starts_at) await holdFrom(tx, id, now);
        const befores = [];
        for (const assetId of assetIds) befores.push(await findAssetRow(tx, workspaceId, assetId));
        await handOut(tx, workspaceId, assetIds, row.person_id, row.ends_at);
        await markCheckedOut(tx, id);
        const person = { id: row.person_id, name: row.person_name };
        for (const before of befores) {
          await this.custodyMoved(tx, caller, before, person, 'checked_out');
        }
        const booking = toBooking(await findBookingRow(tx, workspaceId, id));
        await this.outbox.write(tx, workspaceId, 'booking.checked_out', booking);
        await this.record(tx, caller, booking, 'checked_out', row.status);
        return booking;
      });
    } catch (error) {
      if (!isBookingOverlap(error) || !held) throw error;
      const row = held;
      const conflicts = await this.reads.run((db) =>
        conflictsWith(
          db,
          workspaceId,
          row.assets.map((asset) => asset.id),
          now,
          row.starts_at,
        ),
      );
      throw new DomainError(
        'conflict',
        `Booking ${id} cannot be checked out before its start: ${conflictMessage(conflicts)}`,
      );
    }
  }

  /**
   * Takes back some or all of the assets still out (assignment.checked_in each, as by hand);
   * the last one completes the booking (`booking.completed`) and frees the rest of its range.
   * An asset already checked in by hand is marked returned with no event of its own.
   */
  checkIn(caller: CallerContext, id: string, input: CheckInBookingInput): Promise<Booking> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const row = await findBookingRow(tx, workspaceId, id, true);
      if (!(await mayApprove(tx, caller))) throw notAllowed('take back a booking');
      if (row.status !== 'checked_out' && row.status !== 'overdue') {
        throw new DomainError(
          'conflict',
          `Booking ${id} is ${row.status.replace('_', ' ')}; only a checked-out or overdue ` +
            'booking can be checked in',
        );
      }
      const out = row.assets.filter((asset) => asset.returned_at === null).map((a) => a.id);
      const wanted = input.asset_ids ?? out;
      const onBooking = new Set(row.assets.map((asset) => asset.id));
      const strangers = wanted.filter((assetId) => !onBooking.has(assetId));
      if (strangers.length > 0) {
        throw new DomainError(
          'invalid_input',
          `asset_ids: ${strangers.join(', ')} ${strangers.length === 1 ? 'is' : 'are'} not on booking ${id}`,
        );
      }
      const back = wanted.filter((assetId) => !out.includes(assetId));
      if (back.length > 0) {
        throw new DomainError(
          'conflict',
          `${back.join(', ')} ${back.length === 1 ? 'is' : 'are'} already back from booking ${id}`,
        );
      }
      const returning = [...wanted].sort();
      const locked = await lockAssets(tx, workspaceId, returning);
      // Still with the booking's person: those are checked in now; the others were already.
      const held = locked
        .filter((asset) => asset.assigned_to_id === row.person_id)
        .map((asset) => asset.id);
      const complete = returning.length === out.length;
      for (const assetId of held) await armOverdue(tx, workspaceId, assetId, null);
      if (complete) await cancelNotices(tx, bookingSubject(workspaceId, id));
      const befores = [];
      for (const assetId of held) befores.push(await findAssetRow(tx, workspaceId, assetId));
      await takeBack(tx, workspaceId, held);
      await markReturned(tx, id, returning, complete);
      const person = { id: row.person_id, name: row.person_name };
      for (const before of befores) {
        await this.custodyMoved(tx, caller, before, person, 'checked_in');
      }
      const booking = toBooking(await findBookingRow(tx, workspaceId, id));
      if (complete) {
        await this.outbox.write(tx, workspaceId, 'booking.completed', booking);
        await this.record(tx, caller, booking, 'completed', row.status);
      }
      return booking;
    });
  }

  /** asset.updated and the custody event, with the asset's feed entry, as a PATCH writes them. */
  private async custodyMoved(
    tx: EntityManager,
    caller: CallerContext,
    before: Awaited<ReturnType<typeof findAssetRow>>,
    person: { id: string; name: string },
    action: 'checked_out' | 'checked_in',
  ): Promise<void> {
    const previous = toDetail(before);
    const asset = toDetail(await findAssetRow(tx, caller.workspaceId, before.id));
    await this.outbox.write(tx, caller.workspaceId, 'asset.updated', asset);
    await this.activity.record(tx, caller.workspaceId, {
      ...callerActivity(caller),
      recordType: 'asset',
      recordId: asset.id,
      recordName: asset.name,
      action,
      relatedId: person.id,
      relatedName: person.name,
      changes: assetChanges(previous, asset),
    });
    await writeCustodyEvent(
      this.outbox,
      tx,
      caller.workspaceId,
      action === 'checked_out' ? 'assignment.checked_out' : 'assignment.checked_in',
      asset,
      person,
    );
  }

  private async bookablePerson(
    tx: EntityManager,
    workspaceId: string,
    personId: string,
  ): Promise<{ id: string }> {
    const [person] = await queryRows<{ id: string; full_name: string; status: string }>(
      tx,
      `SELECT id, full_name, status FROM register.people WHERE id = $1 AND workspace_id = $2`,
      [personId, workspaceId],
    );
    if (!person) {
      throw new DomainError('invalid_input', `person_id: person ${personId} not found`);
    }
    if (person.status !== 'active') {
      throw new DomainError(
        'invalid_input',
        `person_id: ${person.full_name} (${person.id}) is inactive and cannot be booked for`,
      );
    }
    return person;
  }

  /**
   * Every asset is this workspace's, out of the bin, in a state that can be handed out, and
   * not checked out past the booking's start. Shared locks: a check-out or a status change
   * of one of them waits for this booking to commit, then sees it.
   */
  private async checkAssets(
    tx: EntityManager,
    workspaceId: string,
    assetIds: string[],
    startsAt: Date,
  ): Promise<void> {
    const rows = await queryRows<BookableAsset>(
      tx,
      `SELECT id, name, status, assigned_to_id, custody_due_at FROM register.assets
        WHERE workspace_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR SHARE`,
      [workspaceId, assetIds],
    );
    const found = new Map(rows.map((row) => [row.id, row]));
    const problems: string[] = [];
    const busy: string[] = [];
    for (const id of assetIds) {
      const asset = found.get(id);
      if (!asset) problems.push(`asset ${id} not found`);
      else if (UNBOOKABLE.has(asset.status)) {
        problems.push(`${asset.name} (${id}) is ${asset.status} and cannot be booked`);
      } else if (
        asset.assigned_to_id !== null &&
        asset.custody_due_at !== null &&
        asset.custody_due_at > startsAt
      ) {
        busy.push(
          `${asset.name} (${id}) is checked out until ${asset.custody_due_at.toISOString()}, ` +
            'after the booking starts',
        );
      }
    }
    if (problems.length > 0) {
      throw new DomainError('invalid_input', `asset_ids: ${problems.join('; ')}`);
    }
    if (busy.length > 0) throw new DomainError('conflict', busy.join('; '));
  }

  private record(
    tx: EntityManager,
    caller: CallerContext,
    booking: Booking,
    action:
      'created' | 'confirmed' | 'rejected' | 'updated' | 'cancelled' | 'checked_out' | 'completed',
    /** The status it left (null for a new booking): the row read under its lock. */
    from: BookingStatus | null = null,
    /** For `updated`: the booking before, whose fields are compared. */
    before?: Booking,
  ): Promise<void> {
    return this.activity.record(tx, caller.workspaceId, {
      ...callerActivity(caller),
      recordType: 'booking',
      recordId: booking.id,
      recordName: bookingName(booking),
      action,
      relatedId: booking.person.id,
      relatedName: booking.person.name,
      changes:
        action === 'created'
          ? [
              { field: 'starts_at', from: null, to: booking.starts_at },
              { field: 'ends_at', from: null, to: booking.ends_at },
            ]
          : before
            ? bookingChanges(before, booking)
            : [{ field: 'status', from, to: booking.status }],
    });
  }

  /**
   * A handed-out booking's end moves: its range (which another booking may refuse), its
   * overdue date, and each asset still out with its person (due date, overdue date,
   * `asset.updated`). Locks: the booking's row first, then the notices, then the assets
   * (ADR 0020).
   */
  private async moveEnd(
    tx: EntityManager,
    caller: CallerContext,
    row: BookingRow,
    endsAt: Date,
    notes: string | null,
  ): Promise<void> {
    const workspaceId = caller.workspaceId;
    if (endsAt.getTime() <= Date.now()) {
      throw new DomainError('invalid_input', 'ends_at must be in the future');
    }
    const start = row.checked_out_at ?? row.starts_at;
    if (endsAt <= start) {
      throw new DomainError('invalid_input', 'ends_at must be after the booking was handed out');
    }
    const out = row.assets.filter((asset) => asset.returned_at === null).map((a) => a.id);
    const subject = bookingSubject(workspaceId, row.id);
    await armNotice(tx, subject, BOOKING_OVERDUE, endsAt);
    for (const assetId of out) await armOverdue(tx, workspaceId, assetId, endsAt);
    const locked = await lockAssets(tx, workspaceId, [...out].sort());
    const held = locked
      .filter((asset) => asset.assigned_to_id === row.person_id)
      .map((asset) => asset.id);
    const befores = [];
    for (const assetId of held) befores.push(await findAssetRow(tx, workspaceId, assetId));
    await moveEnd(tx, row.id, endsAt, notes);
    await moveDue(tx, workspaceId, held, endsAt);
    for (const before of befores) {
      const asset = toDetail(await findAssetRow(tx, workspaceId, before.id));
      await this.outbox.write(tx, workspaceId, 'asset.updated', asset);
      await this.activity.record(tx, workspaceId, {
        ...callerActivity(caller),
        recordType: 'asset',
        recordId: asset.id,
        recordName: asset.name,
        action: 'updated',
        changes: assetChanges(toDetail(before), asset),
      });
    }
  }
}

/** What a PATCH changed, as the feed shows it. */
function bookingChanges(before: Booking, after: Booking): ActivityChange[] {
  return changedFields(before, after, {
    starts_at: (booking) => booking.starts_at,
    ends_at: (booking) => booking.ends_at,
    notes: (booking) => booking.notes,
    assets: (booking) => booking.assets.map((asset) => asset.name).join(', '),
    status: (booking) => booking.status,
  });
}

function checkRange(startsAt: Date, endsAt: Date): void {
  if (endsAt <= startsAt) {
    throw new DomainError('invalid_input', 'ends_at must be after starts_at');
  }
  if (endsAt.getTime() <= Date.now()) {
    throw new DomainError('invalid_input', 'ends_at must be in the future');
  }
  if (endsAt.getTime() - startsAt.getTime() > BOOKING_DAYS_MAX * DAY_MS) {
    throw new DomainError(
      'invalid_input',
      `ends_at must be at most ${BOOKING_DAYS_MAX} days after starts_at`,
    );
  }
}

/** Each conflicting booking, with the asset and its range, in words. */
export function conflictMessage(conflicts: ConflictRow[]): string {
  if (conflicts.length === 0) {
    return 'The booking overlaps another booking of one of its assets that has just changed; try again';
  }
  const named = conflicts
    .slice(0, CONFLICTS_NAMED)
    .map(
      (c) =>
        `${c.asset_name} (${c.asset_id}) is booked from ${c.starts_at.toISOString()} to ` +
        `${c.ends_at.toISOString()} by booking ${c.booking_id}`,
    );
  const more = conflicts.length - named.length;
  return `The booking overlaps: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
