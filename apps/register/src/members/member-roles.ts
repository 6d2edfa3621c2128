import { MEMBER_ROLES, type MemberRole } from '@custodian/contracts';

/** An API key acts as this role on members (spec 4, POST and PATCH /members). */
export const API_KEY_ROLE: MemberRole = 'admin';

/** 0 for owner, the highest; larger is lower. */
export function roleRank(role: MemberRole): number {
  return MEMBER_ROLES.indexOf(role);
}

/** At least admin: the roles that manage members. */
function managesMembers(actor: MemberRole): boolean {
  return roleRank(actor) <= roleRank('admin');
}

/**
 * Why `actor` may not invite someone as `role`, or null when it may. Only an owner creates
 * owners; below that, an actor grants roles up to its own.
 */
export function inviteRefusal(actor: MemberRole, role: MemberRole): string | null {
  if (!managesMembers(actor)) return `A ${actor} cannot invite members`;
  if (role === 'owner' && actor !== 'owner') {
    return `role owner cannot be given by an ${actor}; an API key acts as admin`;
  }
  if (roleRank(role) < roleRank(actor)) return `role ${role} is above the ${actor} role`;
  return null;
}

/**
 * Why `actor` may not change a member from `current` to `next`, or null when it may. Only an
 * owner touches an owner, and nobody but an owner makes one.
 */
export function roleChangeRefusal(
  actor: MemberRole,
  current: MemberRole,
  next: MemberRole,
): string | null {
  if (!managesMembers(actor)) return `A ${actor} cannot change members' roles`;
  if (current === 'owner' && actor !== 'owner') {
    return `An owner's role cannot be changed by an ${actor}; an API key acts as admin`;
  }
  if (next === 'owner' && actor !== 'owner') {
    return `role owner cannot be given by an ${actor}; an API key acts as admin`;
  }
  if (roleRank(current) < roleRank(actor) || roleRank(next) < roleRank(actor)) {
    return `An ${actor} cannot change roles above its own`;
  }
  return null;
}

/**
 * Why `actor` may not remove a member whose role is `target`, or null when it may: those who
 * manage members remove roles up to their own, and only an owner removes an owner.
 */
export function removalRefusal(actor: MemberRole, target: MemberRole): string | null {
  if (!managesMembers(actor)) return `A ${actor} cannot remove members`;
  if (target === 'owner' && actor !== 'owner') return `An owner cannot be removed by an ${actor}`;
  if (roleRank(target) < roleRank(actor)) return `An ${actor} cannot remove an ${target}`;
  return null;
}
