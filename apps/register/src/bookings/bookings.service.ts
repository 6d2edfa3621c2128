import {
  BOOKING_DAYS_MAX,
  BOOKING_PAGE_SIZE_DEFAULT,
  BOOKING_PAGE_SIZE_MAX,
  DomainError,
  callerActivity,
  type Booking,
  type BookingListQuery,
  type CallerContext,
  type CancelBookingInput,
  type CreateBookingInput,
  type Page,
} from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog, newId, queryRows } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import {
  bookingPage,
  cancelBooking,
  conflictsWith,
  findBookingRow,
  insertBooking,
  isBookingOverlap,
  toBooking,
  type ConflictRow,
} from './booking.store';

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
 * Every booking made here is confirmed at once (the approval setting comes with requests):
 * `booking.created` then `booking.confirmed`, in the transaction that makes it.
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
    const page = pageNumber(query.page, 'page', 1, 1_000_000, 1);
    const pageSize = pageNumber(
      query.pageSize,
      'pageSize',
      1,
      BOOKING_PAGE_SIZE_MAX,
      BOOKING_PAGE_SIZE_DEFAULT,
    );
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

  async create(caller: CallerContext, input: CreateBookingInput): Promise<Booking> {
    const startsAt = new Date(input.starts_at);
    const endsAt = new Date(input.ends_at);
    checkRange(startsAt, endsAt);
    // Sorted: two bookings of the same assets insert their rows in one order (no deadlock).
    const assetIds = [...new Set(input.asset_ids)].sort();
    if (assetIds.length !== input.asset_ids.length) {
      throw new DomainError('invalid_input', 'asset_ids must name each asset once');
    }
    const workspaceId = caller.workspaceId;
    try {
      return await this.writes.run(workspaceId, async (tx) => {
        const person = await this.bookablePerson(tx, workspaceId, input.person_id);
        await this.checkAssets(tx, workspaceId, assetIds, startsAt);
        const id = newId('bkg');
        await insertBooking(
          tx,
          {
            id,
            workspace_id: workspaceId,
            person_id: person.id,
            status: 'confirmed',
            starts_at: startsAt,
            ends_at: endsAt,
            notes: input.notes ?? null,
          },
          assetIds,
        );
        const booking = toBooking(await findBookingRow(tx, workspaceId, id));
        await this.outbox.write(tx, workspaceId, 'booking.created', booking);
        await this.outbox.write(tx, workspaceId, 'booking.confirmed', booking);
        await this.record(tx, caller, booking, 'created');
        return booking;
      });
    } catch (error) {
      if (!isBookingOverlap(error)) throw error;
      // The constraint refused the rows; the transaction is gone, so the conflicts are read
      // afresh (committed bookings: what the caller must move around).
      const conflicts = await this.reads.run((db) =>
        conflictsWith(db, workspaceId, assetIds, startsAt, endsAt),
      );
      throw new DomainError('conflict', conflictMessage(conflicts));
    }
  }

  /** Before its assets are handed out: frees its range and fires `booking.cancelled`. */
  cancel(caller: CallerContext, id: string, input: CancelBookingInput): Promise<Booking> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const row = await findBookingRow(tx, workspaceId, id, true);
      if (row.status !== 'requested' && row.status !== 'confirmed') {
        throw new DomainError(
          'conflict',
          `Booking ${id} is ${row.status.replace('_', ' ')}; only a requested or confirmed ` +
            'booking can be cancelled',
        );
      }
      await cancelBooking(tx, row.id, 'cancelled', input.note ?? null);
      const booking = toBooking(await findBookingRow(tx, workspaceId, id));
      await this.outbox.write(tx, workspaceId, 'booking.cancelled', booking);
      await this.record(tx, caller, booking, 'cancelled');
      return booking;
    });
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
    action: 'created' | 'cancelled',
  ): Promise<void> {
    return this.activity.record(tx, caller.workspaceId, {
      ...callerActivity(caller),
      recordType: 'booking',
      recordId: booking.id,
      recordName: `${booking.assets.map((asset) => asset.name).join(', ')} for ${booking.person.name}`,
      action,
      relatedId: booking.person.id,
      relatedName: booking.person.name,
      changes:
        action === 'created'
          ? [
              { field: 'starts_at', from: null, to: booking.starts_at },
              { field: 'ends_at', from: null, to: booking.ends_at },
            ]
          : [{ field: 'status', from: 'confirmed', to: 'cancelled' }],
    });
  }
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

function pageNumber(
  raw: string | undefined,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new DomainError('invalid_input', `${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}
