/** Workspace roles, highest first (DECISIONS.md, Members). */
export const MEMBER_ROLES = ['owner', 'admin', 'manager', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const MEMBER_STATUSES = ['invited', 'active'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** How long an invitation link stays valid. */
export const INVITATION_TTL_DAYS = 7;

/** Roles as the decorators' validators see them (a guard for hand-built values). */
export const isMemberRole = (value: unknown): value is MemberRole =>
  (MEMBER_ROLES as readonly unknown[]).includes(value);
