import { CONSOLE_KEY_PREFIX, DomainError, type CallerContext } from '@custodian/contracts';
import type { EntityManager } from 'typeorm';
import { findMemberRow } from '../members/member.store';

/** Roles that confirm, reject, and change or cancel anyone's booking (docs/decisions.md). */
const APPROVERS = new Set(['owner', 'admin', 'manager']);

/**
 * Whether the caller may confirm bookings: a write key acts as admin; a console member by
 * their role as it is now (read in the caller's transaction, so a demotion a moment ago
 * counts). The gateway says who a console caller is (`console:<member id>`); the register
 * owns the roles.
 */
export async function mayApprove(db: EntityManager, caller: CallerContext): Promise<boolean> {
  if (!caller.keyId.startsWith(CONSOLE_KEY_PREFIX)) return caller.scope === 'write';
  const memberId = caller.keyId.slice(CONSOLE_KEY_PREFIX.length);
  try {
    const member = await findMemberRow(db, caller.workspaceId, memberId);
    return APPROVERS.has(member.role);
  } catch (error) {
    // Removed since the gateway admitted the call: no more than a member.
    if (error instanceof DomainError && error.code === 'not_found') return false;
    throw error;
  }
}

/** A member acting on a booking that is not theirs, or doing what only a manager may. */
export function notAllowed(what: string): DomainError {
  return new DomainError('forbidden', `Only a manager, an admin or the owner may ${what}`);
}
