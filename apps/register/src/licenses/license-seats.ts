import { callerActivity, type CallerContext, type LicenseSeat } from '@custodian/contracts';
import type { OutboxWriter } from '@custodian/messaging';
import { queryRows, type ActivityLog } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import { deleteSeat, findSeatRow, toSeat } from './license.store';

/** What a seat change writes with: the caller's transaction, outbox and feed. */
export interface SeatWriter {
  tx: EntityManager;
  outbox: OutboxWriter;
  activity: ActivityLog;
  caller: CallerContext;
}

/** license.seat_assigned or _released, and the licence's feed entry naming the holder. */
export async function seatChanged(
  { tx, outbox, activity, caller }: SeatWriter,
  change: {
    seats: number | null;
    seatsUsed: number;
    seat: LicenseSeat;
    how: 'assigned' | 'released';
  },
): Promise<void> {
  const { seat, how, seatsUsed } = change;
  const holder = seat.person ?? seat.asset;
  await outbox.write(tx, caller.workspaceId, `license.seat_${how}`, {
    seat,
    seats: change.seats,
    seats_used: seatsUsed,
    at: new Date().toISOString(),
  });
  const before = how === 'assigned' ? seatsUsed - 1 : seatsUsed + 1;
  await activity.record(tx, caller.workspaceId, {
    ...callerActivity(caller),
    recordType: 'license',
    recordId: seat.license.id,
    recordName: seat.license.name,
    action: `seat_${how}`,
    relatedId: holder?.id ?? null,
    relatedName: holder?.name ?? null,
    changes: [{ field: 'seats_used', from: String(before), to: String(seatsUsed) }],
  });
}

/**
 * Releases every seat the person holds (an offboarding asked to), in the caller's transaction:
 * one `license.seat_released` each. The person's row is locked by the caller first; the
 * licences are locked here in id order (an assign locks the person, then the licence, so the
 * two never wait on each other in a cycle). Answers the seats released.
 */
export async function releasePersonSeats(
  writer: SeatWriter,
  personId: string,
): Promise<LicenseSeat[]> {
  const { tx, caller } = writer;
  const licences = await queryRows<{ id: string; seats: number | null; seats_used: number }>(
    tx,
    `SELECT l.id, l.seats,
            (SELECT count(*)::int FROM register.license_seats s WHERE s.license_id = l.id)
              AS seats_used
       FROM register.licenses l
      WHERE l.workspace_id = $1
        AND l.id IN (SELECT license_id FROM register.license_seats WHERE person_id = $2)
      ORDER BY l.id FOR UPDATE OF l`,
    [caller.workspaceId, personId],
  );
  const released: LicenseSeat[] = [];
  for (const licence of licences) {
    const [held] = await queryRows<{ id: string }>(
      tx,
      `SELECT id FROM register.license_seats WHERE license_id = $1 AND person_id = $2`,
      [licence.id, personId],
    );
    if (!held) continue;
    const seat = toSeat(await findSeatRow(tx, licence.id, held.id));
    await deleteSeat(tx, held.id);
    await seatChanged(writer, {
      seats: licence.seats,
      seatsUsed: licence.seats_used - 1,
      seat,
      how: 'released',
    });
    released.push(seat);
  }
  return released;
}
