import { DomainError, type MemberView } from '@custodian/contracts';
import { isUniqueViolation, queryOne, queryRows, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import type { InvitationEntity } from './invitation.entity';
import type { MemberEntity } from './member.entity';

/*
 * register.members and register.invitations: their SQL and their row types, and the view a
 * member's row makes. The seats a workspace uses are a column of register.workspace_counters,
 * the counters' table (counters/workspace-counters.ts); the service writes them.
 */

// ---------------------------------------------------------------------------------------------
// Members

const MEMBER_COLUMNS = `m.id, m.email, m.name, m.role, m.status, m.invited_at, m.joined_at`;

export type MemberRow = Pick<
  MemberEntity,
  'id' | 'email' | 'name' | 'role' | 'status' | 'invited_at' | 'joined_at'
>;

/** A workspace's members, oldest first. */
export function listMembers(db: EntityManager, workspaceId: string): Promise<MemberRow[]> {
  return db.query<MemberRow[]>(
    `SELECT ${MEMBER_COLUMNS} FROM register.members m
         WHERE m.workspace_id = $1 ORDER BY m.created_at, m.id`,
    [workspaceId],
  );
}

/**
 * The one way a member is looked up by id: within the workspace, and the same 404 whether the
 * id is unknown or belongs to another workspace.
 */
export async function findMemberRow(
  manager: EntityManager,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<MemberRow> {
  const rows =
    id.length <= 64 && !id.includes('\u0000')
      ? await manager.query<MemberRow[]>(
          `SELECT ${MEMBER_COLUMNS} FROM register.members m
           WHERE m.id = $1 AND m.workspace_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
          [id, workspaceId],
        )
      : [];
  const row = rows[0];
  if (!row) throw new DomainError('not_found', `Member ${id} not found`);
  return row;
}

/** The workspace's member with this e-mail (in any case), locked, if any. */
export async function lockMemberByEmail(
  tx: EntityManager,
  workspaceId: string,
  email: string,
): Promise<Pick<MemberEntity, 'id' | 'status'> | undefined> {
  const existing = await tx.query<Array<Pick<MemberEntity, 'id' | 'status'>>>(
    `SELECT m.id, m.status FROM register.members m
       WHERE m.workspace_id = $1 AND lower(m.email) = lower($2) FOR UPDATE OF m`,
    [workspaceId, email],
  );
  return existing[0];
}

/** The columns an invitation writes to its member's row. */
export type InvitedMemberRow = Pick<MemberEntity, 'id' | 'email' | 'name' | 'role'>;

/** A member whose invitation expired, invited again: its role, name and e-mail as now given. */
export async function reinviteMember(tx: EntityManager, member: InvitedMemberRow): Promise<void> {
  await tx.query(
    `UPDATE register.members SET role = $2, name = $3, email = $4, invited_at = now(),
           updated_at = now() WHERE id = $1`,
    [member.id, member.role, member.name, member.email],
  );
}

export async function insertInvitedMember(
  tx: EntityManager,
  member: InvitedMemberRow & Pick<MemberEntity, 'workspace_id'>,
): Promise<void> {
  await tx.query(
    `INSERT INTO register.members (id, workspace_id, email, name, role, status, invited_at)
       VALUES ($1, $2, $3, $4, $5, 'invited', now())`,
    [member.id, member.workspace_id, member.email, member.name, member.role],
  );
}

/** A workspace's owner, active at once. */
export async function insertOwner(
  tx: EntityManager,
  owner: Pick<MemberEntity, 'id' | 'workspace_id' | 'email' | 'name'>,
): Promise<void> {
  await tx.query(
    `INSERT INTO register.members (id, workspace_id, email, name, role, status, joined_at)
           VALUES ($1, $2, $3, $4, 'owner', 'active', now())`,
    [owner.id, owner.workspace_id, owner.email, owner.name],
  );
}

export async function setMemberRole(
  tx: EntityManager,
  workspaceId: string,
  id: string,
  role: MemberEntity['role'],
): Promise<void> {
  await tx.query(
    `UPDATE register.members SET role = $3, updated_at = now()
       WHERE id = $1 AND workspace_id = $2`,
    [id, workspaceId, role],
  );
}

/** A new link sent: the member was invited now. */
export async function markInvitedNow(tx: EntityManager, id: string): Promise<void> {
  await tx.query(`UPDATE register.members SET invited_at = now() WHERE id = $1`, [id]);
}

/** The invited member joins. */
export async function activateMember(tx: EntityManager, id: string): Promise<void> {
  await tx.query(
    `UPDATE register.members SET status = 'active', joined_at = now(), updated_at = now()
         WHERE id = $1`,
    [id],
  );
}

/** The member goes, and with it (ON DELETE CASCADE) its invitations. */
export async function deleteMember(
  tx: EntityManager,
  workspaceId: string,
  id: string,
): Promise<void> {
  await tx.query(`DELETE FROM register.members WHERE id = $1 AND workspace_id = $2`, [
    id,
    workspaceId,
  ]);
}

const EMAIL_CONSTRAINT = 'members_workspace_email';

/** Two concurrent invites of one e-mail both pass the check; the unique index decides. */
export function translateEmailConflict(error: unknown, conflict: DomainError): unknown {
  return isUniqueViolation(error, EMAIL_CONSTRAINT) ? conflict : error;
}

export function toMemberView(row: MemberRow): MemberView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.status,
    invited_at: row.invited_at?.toISOString() ?? null,
    joined_at: row.joined_at?.toISOString() ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// An e-mail's memberships (console sign-in, sign-in/)

/** An active membership of the e-mail; member_id null on the one row of an e-mail without. */
export type MembershipRow = Pick<MemberEntity, 'workspace_id' | 'role' | 'name'> & {
  email: string;
  member_id: string | null;
};

/**
 * The e-mail (lower case) and its active memberships across workspaces, oldest joined first:
 * one row without a member when it has none.
 */
export function activeMemberships(db: EntityManager, email: string): Promise<MembershipRow[]> {
  // The lower case is Postgres's, as the members' unique index compares e-mails.
  return queryRows<MembershipRow>(
    db,
    `SELECT e.email, m.workspace_id, m.id AS member_id, m.role, m.name
     FROM (SELECT lower($1::text) AS email) e
     LEFT JOIN register.members m ON lower(m.email) = e.email AND m.status = 'active'
     ORDER BY m.joined_at, m.id`,
    [email],
  );
}

// ---------------------------------------------------------------------------------------------
// Invitations

/** An invitation as stored (RETURNING of its insert). */
export type StoredInvitation = Pick<
  InvitationEntity,
  'id' | 'workspace_id' | 'member_id' | 'expires_at' | 'accepted_at'
>;

/** An invitation with its member's e-mail and role. */
export type InvitationRow = StoredInvitation & Pick<MemberEntity, 'email' | 'role'>;

/** The columns an invitation is created with; it expires `ttlDays` from now. */
export type NewInvitationRow = Pick<
  InvitationEntity,
  'id' | 'workspace_id' | 'member_id' | 'token_hash'
>;

export function insertInvitation(
  tx: EntityManager,
  invitation: NewInvitationRow,
  ttlDays: number,
): Promise<StoredInvitation> {
  return queryOne<StoredInvitation>(
    tx,
    `INSERT INTO register.invitations (id, workspace_id, member_id, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(days => $5))
     RETURNING id, workspace_id, member_id, expires_at, accepted_at`,
    [invitation.id, invitation.workspace_id, invitation.member_id, invitation.token_hash, ttlDays],
  );
}

/** The invitation whose token has this hash, with its member; not_found if none. */
export async function findInvitationRow(
  manager: EntityManager,
  tokenHash: Buffer,
  forUpdate: boolean,
): Promise<InvitationRow> {
  const rows = await manager.query<InvitationRow[]>(
    `SELECT i.id, i.workspace_id, i.member_id, m.email, m.role, i.expires_at, i.accepted_at
     FROM register.invitations i JOIN register.members m ON m.id = i.member_id
     WHERE i.token_hash = $1${forUpdate ? ' FOR UPDATE OF i' : ''}`,
    [tokenHash],
  );
  const row = rows[0];
  if (!row) throw new DomainError('not_found', 'Invitation not found; the link may be mistyped');
  return row;
}

/** Invitations not accepted and not expired in the workspace. */
export async function pendingInvitationCount(
  tx: EntityManager,
  workspaceId: string,
): Promise<number> {
  const { pending } = await queryOne<{ pending: number }>(
    tx,
    `SELECT count(*)::int AS pending FROM register.invitations
       WHERE workspace_id = $1 AND accepted_at IS NULL AND expires_at > now()`,
    [workspaceId],
  );
  return pending;
}

export async function hasOpenInvitation(tx: EntityManager, memberId: string): Promise<boolean> {
  const { open } = await queryOne<{ open: boolean }>(
    tx,
    `SELECT EXISTS (
       SELECT 1 FROM register.invitations
       WHERE member_id = $1 AND accepted_at IS NULL AND expires_at > now()) AS open`,
    [memberId],
  );
  return open;
}

/** An open invitation as the admin CLI lists it. */
export type OpenInvitationRow = Pick<InvitationRow, 'id' | 'email' | 'role' | 'expires_at'>;

/** The open invitations of a workspace (not accepted, not expired), oldest first. */
export function openInvitations(db: Queryable, workspaceId: string): Promise<OpenInvitationRow[]> {
  return db.query<OpenInvitationRow[]>(
    `SELECT i.id, m.email, m.role, i.expires_at
       FROM register.invitations i JOIN register.members m ON m.id = i.member_id
       WHERE i.workspace_id = $1 AND i.accepted_at IS NULL AND i.expires_at > now()
       ORDER BY i.created_at, i.id`,
    [workspaceId],
  );
}

/** The member's invitation not yet accepted, expired or not, goes (its link stops working). */
export async function deleteOpenInvitations(tx: EntityManager, memberId: string): Promise<void> {
  await tx.query(`DELETE FROM register.invitations WHERE member_id = $1 AND accepted_at IS NULL`, [
    memberId,
  ]);
}

export type RenewedInvitationRow = Pick<
  InvitationRow,
  'email' | 'role' | 'expires_at' | 'workspace_id' | 'member_id'
>;

/**
 * A new token hash for the open invitation `id`, valid for `ttlDays` from now; undefined when
 * it is unknown, accepted or expired.
 */
export async function renewOpenInvitation(
  tx: EntityManager,
  id: string,
  tokenHash: Buffer,
  ttlDays: number,
): Promise<RenewedInvitationRow | undefined> {
  const [row] = await queryRows<RenewedInvitationRow>(
    tx,
    `UPDATE register.invitations i SET token_hash = $2,
           expires_at = now() + make_interval(days => $3)
         FROM register.members m
         WHERE i.id = $1 AND i.accepted_at IS NULL AND i.expires_at > now() AND m.id = i.member_id
         RETURNING m.email, m.role, i.expires_at, i.workspace_id, i.member_id`,
    [id, tokenHash, ttlDays],
  );
  return row;
}

/** When the invitation expires and whether it was accepted; undefined for an unknown id. */
export async function invitationState(
  db: Queryable,
  id: string,
): Promise<Pick<InvitationEntity, 'expires_at' | 'accepted_at'> | undefined> {
  const [row] = await queryRows<Pick<InvitationEntity, 'expires_at' | 'accepted_at'>>(
    db,
    `SELECT expires_at, accepted_at FROM register.invitations WHERE id = $1`,
    [id],
  );
  return row;
}

export async function markInvitationAccepted(tx: EntityManager, id: string): Promise<void> {
  await tx.query(`UPDATE register.invitations SET accepted_at = now() WHERE id = $1`, [id]);
}
