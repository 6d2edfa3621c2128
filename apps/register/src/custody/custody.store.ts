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
