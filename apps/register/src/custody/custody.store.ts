import { DomainError, PERSON_HOLDINGS_MAX, type PersonStatus } from '@custodian/contracts';
import type { EntityManager } from 'typeorm';

/*
 * Custody: an asset of register.assets checked out to a person of register.people
 * (assets.assigned_to_id). This is the SQL that crosses from one to the other: what a check-out
 * reads of the person (assets/ asks), and what a person holds (people/ asks). It lies below
 * both folders, so it imports neither: its row types are written out here, and each store holds
 * its entity to them (assets/asset.store.ts, people/person.store.ts).
 */

export interface Holder {
  id: string;
  name: string;
}

/** What a check-out reads of register.people (person.store.ts holds PersonEntity to it). */
export interface CheckoutCandidateRow {
  id: string;
  full_name: string;
  status: PersonStatus;
}

/**
 * An asset the person holds, from register.assets (asset.store.ts holds AssetEntity to it).
 * assigned_at is set whenever assigned_to_id is (both are written together on check-out), so a
 * held asset has one.
 */
export interface HoldingRow {
  id: string;
  name: string;
  asset_tag: string;
  assigned_at: Date;
}

/**
 * The person an asset is checked out to: of the caller's workspace and active. Another
 * workspace's person is a 400 (the id is not one the caller can use), never a 404.
 */
export async function checkoutTarget(
  tx: EntityManager,
  workspaceId: string,
  personId: string,
): Promise<Holder> {
  const rows = await tx.query<CheckoutCandidateRow[]>(
    `SELECT id, full_name, status FROM register.people
     WHERE id = $1 AND workspace_id = $2 FOR SHARE`,
    [personId, workspaceId],
  );
  const person = rows[0];
  if (!person) {
    throw new DomainError(
      'invalid_input',
      `assigned_to_id ${personId} is not a person of this workspace`,
    );
  }
  if (person.status !== 'active') {
    throw new DomainError(
      'invalid_input',
      `assigned_to_id ${personId} is inactive; assets are checked out to active people only`,
    );
  }
  return { id: person.id, name: person.full_name };
}

/**
 * The person's most recent check-outs, newest first, so a reply or an event stays small
 * whatever a person holds; `total`, on each, counts every holding.
 */
export function recentHoldings(
  manager: EntityManager,
  workspaceId: string,
  personId: string,
): Promise<Array<HoldingRow & { total: number }>> {
  // The window count is taken before the LIMIT, over every holding.
  return manager.query<Array<HoldingRow & { total: number }>>(
    `SELECT id, name, asset_tag, assigned_at, count(*) OVER ()::int AS total
       FROM register.assets WHERE workspace_id = $1 AND assigned_to_id = $2
       ORDER BY assigned_at DESC, id DESC LIMIT ${PERSON_HOLDINGS_MAX}`,
    [workspaceId, personId],
  );
}

/**
 * A check-out by hand must not take an asset a booking holds (register.booking_assets, the
 * bookings folder's table, read here because assets/ may not import bookings/): the holding
 * booking whose range meets [now, dueAt), or, for a check-out with no due date, the one that
 * holds the asset now (the booking side allows the same: a check-out with no due date does not
 * refuse a booking). An asset already back from its booking is free. A booking's own hand-out
 * does not come through here. 409 naming it.
 *
 * Called with the asset's row locked FOR UPDATE: a booking being made takes it FOR SHARE, so
 * the two serialize and each sees the other once committed.
 */
export async function refuseBookedCheckout(
  tx: EntityManager,
  workspaceId: string,
  assetId: string,
  dueAt: Date | null,
): Promise<void> {
  const [booking] = await tx.query<
    Array<{ id: string; starts_at: Date; ends_at: Date; status: string; person_name: string }>
  >(
    `SELECT b.id, b.starts_at, b.ends_at, b.status, p.full_name AS person_name
       FROM register.booking_assets ba
       JOIN register.bookings b ON b.id = ba.booking_id
       JOIN register.people p ON p.id = b.person_id
      WHERE ba.workspace_id = $1 AND ba.asset_id = $2 AND ba.holds AND ba.returned_at IS NULL
        AND ba.during && CASE WHEN $3::timestamptz IS NULL THEN tstzrange(now(), now(), '[]')
                              ELSE tstzrange(now(), $3::timestamptz) END
      ORDER BY lower(ba.during) LIMIT 1`,
    [workspaceId, assetId, dueAt],
  );
  if (!booking) return;
  throw new DomainError(
    'conflict',
    `Asset ${assetId} is booked for ${booking.person_name} from ` +
      `${booking.starts_at.toISOString()} to ${booking.ends_at.toISOString()} by booking ` +
      `${booking.id} (${booking.status.replace('_', ' ')}): hand it out with the booking's ` +
      'check-out, or move the booking first',
  );
}
