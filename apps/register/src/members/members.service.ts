import { OutboxWriter, WorkspacePlans, assertIfMatch } from '@custodian/messaging';
import {
  DomainError,
  INVITATION_TTL_DAYS,
  SYSTEM_ACTOR,
  callerActivity,
  type ActivityRecord,
  type CallerContext,
  type InvitationAcceptInput,
  type InvitationListInput,
  type InvitationRenewInput,
  type InviteMemberInput,
  type MemberRefInput,
  type MemberRemoveInput,
  type MemberRoleInput,
  type OwnerCreateInput,
  type UpdateMemberInput,
  type InvitationView,
  type MemberRole,
  type MemberView,
  type RenewedInvitationView,
} from '@custodian/contracts';
import { limitReachedMessage, wouldExceed } from '@custodian/plans';
import { ActivityLog, newId } from '@custodian/persistence';
import { lockWorkspaceCounters } from '../counters/workspace-counters';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { RegisterConfig } from '../config/register-config';
import { Mailer } from '../mail/mailer';
import { consoleLink, hashToken, newToken } from '../tokens/one-time-token';
import { API_KEY_ROLE, inviteRefusal, removalRefusal, roleChangeRefusal } from './member-roles';
import {
  activateMember,
  deleteMember,
  deleteOpenInvitations,
  findInvitationRow,
  findMemberRow,
  hasOpenInvitation,
  insertInvitation,
  insertInvitedMember,
  insertOwner,
  invitationState,
  listMembers,
  lockMemberByEmail,
  markInvitationAccepted,
  markInvitedNow,
  openInvitations,
  pendingInvitationCount,
  reinviteMember,
  renewOpenInvitation,
  setMemberRole,
  toMemberView,
  translateEmailConflict,
  type InvitationRow,
  type MemberRow,
  type StoredInvitation,
} from './member.store';

/** A stored invitation and its token, which exists only until it is e-mailed. */
type IssuedInvitation = StoredInvitation & { token: string };

/**
 * Workspace members (logins, not people records) and their invitations. A seat is an active
 * member: inviting is free, accepting consumes a seat, counted exactly under the workspace's
 * counter row lock.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly db: DataSource,
    private readonly writes: WriteTransactions,
    private readonly config: RegisterConfig,
    private readonly mailer: Mailer,
    private readonly plans: WorkspacePlans,
    private readonly outbox: OutboxWriter,
    private readonly reads: ReadTransactions,
    private readonly activity: ActivityLog,
  ) {}

  /** A cheap read: a workspace's members are its seats, a few hundred at most. */
  async list(caller: CallerContext): Promise<MemberView[]> {
    const rows = await this.reads.run((db) => listMembers(db, caller.workspaceId));
    return rows.map(toMemberView);
  }

  /**
   * Admin (the gateway, for a console session): one member as it is now, whatever its
   * status; a member removed, or of another workspace, is not_found.
   */
  async get(input: MemberRefInput): Promise<MemberView> {
    return toMemberView(await findMemberRow(this.db.manager, input.workspace, input.id));
  }

  /**
   * The console's Remove: the member (and an invitation still open) is deleted, an active
   * member's seat is freed, and `member.removed` carries the member as it was. The actor's role
   * is read here, in the same transaction, so a demotion a moment ago already counts. Their
   * console sessions end with it: the gateway asks for the member on every request.
   */
  async remove(input: MemberRemoveInput): Promise<MemberView> {
    return this.writes.run(input.workspace, async (tx) => {
      // The counters row first: removals and accepts of one workspace count seats in turn.
      await lockWorkspaceCounters(tx, input.workspace);
      const actor = await findMemberRow(tx, input.workspace, input.actor, true);
      if (actor.status !== 'active') {
        throw new DomainError('forbidden', 'You are no longer a member of this workspace');
      }
      const target = await findMemberRow(tx, input.workspace, input.id, true);
      if (target.id === actor.id) {
        throw new DomainError(
          'conflict',
          'You cannot remove yourself; another owner or admin can remove you',
        );
      }
      const refusal = removalRefusal(actor.role, target.role);
      if (refusal) throw new DomainError('forbidden', refusal);
      await deleteMember(tx, input.workspace, target.id);
      if (target.status === 'active') {
        await tx.query(
          `UPDATE register.workspace_counters SET member_count = member_count - 1
            WHERE workspace_id = $1`,
          [input.workspace],
        );
      }
      const removed = toMemberView(target);
      await this.outbox.write(tx, input.workspace, 'member.removed', removed);
      await this.record(tx, input.workspace, memberActor(actor), removed, {
        action: target.status === 'invited' ? 'invitation_cancelled' : 'removed',
      });
      return removed;
    });
  }

  /** POST /members: an invited member, its invitation and `member.invited`; then the e-mail. */
  async invite(caller: CallerContext, input: InviteMemberInput): Promise<MemberView> {
    const role = input.role ?? 'member';
    const refusal = inviteRefusal(API_KEY_ROLE, role);
    if (refusal) throw new DomainError('forbidden', refusal);
    const email = input.email.trim();
    let invited: {
      reply: MemberView;
      result?: { member: MemberView; invitation: IssuedInvitation };
    };
    try {
      invited = await this.writes.apply(
        caller.workspaceId,
        async (tx) => {
          await this.assertInvitationRoom(tx, caller.workspaceId);
          const memberId = await this.upsertInvited(
            tx,
            caller.workspaceId,
            email,
            role,
            input.name,
          );
          const invitation = await issueInvitation(tx, caller.workspaceId, memberId);
          const member = toMemberView(await findMemberRow(tx, caller.workspaceId, memberId));
          await this.outbox.write(tx, caller.workspaceId, 'member.invited', member);
          await this.record(tx, caller.workspaceId, callerActivity(caller), member, {
            action: 'invited',
            changes: [{ field: 'role', from: null, to: member.role }],
          });
          return { member, invitation };
        },
        // The reply kept for a repeat of this request carries no token.
        (result) => result.member,
      );
    } catch (error) {
      throw translateEmailConflict(error, alreadyInvited(email));
    }
    // After the commit, and only for the request that committed (a repeat sends no second
    // mail): a mail that fails leaves the invitation listed (`invitation renew`
    // gives it a new link).
    if (invited.result) {
      this.mailer.send(this.invitationMail(invited.result.member, invited.result.invitation));
    }
    return invited.reply;
  }

  /**
   * Under the workspace's counters lock (concurrent invites are counted one after the other):
   * refuses while MAX_PENDING_INVITATIONS are open.
   */
  private async assertInvitationRoom(tx: EntityManager, workspaceId: string): Promise<void> {
    await lockWorkspaceCounters(tx, workspaceId);
    const pending = await pendingInvitationCount(tx, workspaceId);
    const max = this.config.MAX_PENDING_INVITATIONS;
    if (pending >= max) {
      throw new DomainError(
        'conflict',
        `${max} invitations are already pending in this workspace; more can be sent once some are accepted or expire`,
      );
    }
  }

  /**
   * The member row for a new invitation. An e-mail already active, or invited with a link still
   * valid, is a conflict; one whose invitation expired is invited again.
   */
  private async upsertInvited(
    tx: EntityManager,
    workspaceId: string,
    email: string,
    role: MemberRole,
    name: string | null | undefined,
  ): Promise<string> {
    const current = await lockMemberByEmail(tx, workspaceId, email);
    if (current?.status === 'active') throw alreadyMember(email);
    // A statement of its own, after the lock: its snapshot sees the invitation of a concurrent
    // re-invite that held the lock before us (one statement would recheck only the member row).
    if (current && (await hasOpenInvitation(tx, current.id))) throw alreadyInvited(email);
    if (current) {
      await reinviteMember(tx, { id: current.id, role, name: name?.trim() ?? null, email });
      return current.id;
    }
    const id = newId('usr');
    await insertInvitedMember(tx, {
      id,
      workspace_id: workspaceId,
      email,
      name: name?.trim() ?? null,
      role,
    });
    return id;
  }

  /**
   * PATCH /members/{userId}: the key acts as admin, bounded by the role hierarchy. `ifMatch`:
   * the client's If-Match, checked against the member under its row lock.
   */
  async update(
    caller: CallerContext,
    userId: string,
    input: UpdateMemberInput,
    ifMatch?: readonly string[],
  ): Promise<MemberView> {
    return this.writes.run(caller.workspaceId, async (tx) => {
      const current = await findMemberRow(tx, caller.workspaceId, userId, true);
      assertIfMatch(ifMatch, toMemberView(current), `Member ${userId}`);
      const refusal = roleChangeRefusal(API_KEY_ROLE, current.role, input.role);
      if (refusal) throw new DomainError('forbidden', refusal);
      return this.changeRole(tx, caller.workspaceId, current, input.role, callerActivity(caller));
    });
  }

  /**
   * The console's role change: as the signed-in member `actor`, whose role is read in this
   * transaction and bounds what they may give or take (and nobody changes their own).
   */
  async setRole(input: MemberRoleInput): Promise<MemberView> {
    return this.writes.run(input.workspace, async (tx) => {
      const actor = await this.activeActor(tx, input.workspace, input.actor);
      const target = await findMemberRow(tx, input.workspace, input.id, true);
      assertIfMatch(input.if_match, toMemberView(target), `Member ${input.id}`);
      if (target.id === actor.id) {
        throw new DomainError(
          'conflict',
          'You cannot change your own role; another owner or admin can change it',
        );
      }
      const refusal = roleChangeRefusal(actor.role, target.role, input.role);
      if (refusal) throw new DomainError('forbidden', refusal);
      return this.changeRole(tx, input.workspace, target, input.role, memberActor(actor));
    });
  }

  private async changeRole(
    tx: EntityManager,
    workspaceId: string,
    current: MemberRow,
    role: MemberRole,
    by: Pick<ActivityRecord, 'source' | 'actor'>,
  ): Promise<MemberView> {
    if (current.role === role) return toMemberView(current);
    await setMemberRole(tx, workspaceId, current.id, role);
    const member = toMemberView(await findMemberRow(tx, workspaceId, current.id));
    await this.record(tx, workspaceId, by, member, {
      action: 'role_changed',
      changes: [{ field: 'role', from: current.role, to: member.role }],
    });
    return member;
  }

  /**
   * The console's Resend: a new link for an invited member (the old one stops working), valid
   * for INVITATION_TTL_DAYS from now, e-mailed after the commit; an expired invitation is
   * renewed too, since the member row still waits for it. Needs the manage permission the
   * gateway checks, and the actor to be active.
   */
  async resendInvitation(input: MemberRemoveInput): Promise<MemberView> {
    const sent = await this.writes.apply(
      input.workspace,
      async (tx) => {
        const actor = await this.activeActor(tx, input.workspace, input.actor);
        const target = await findMemberRow(tx, input.workspace, input.id, true);
        if (target.status !== 'invited') {
          throw new DomainError('conflict', `${target.email} has already joined`);
        }
        await deleteOpenInvitations(tx, target.id);
        const invitation = await issueInvitation(tx, input.workspace, target.id);
        await markInvitedNow(tx, target.id);
        const member = toMemberView(await findMemberRow(tx, input.workspace, target.id));
        await this.record(tx, input.workspace, memberActor(actor), member, {
          action: 'invitation_resent',
        });
        return { member, invitation };
      },
      (result) => result.member,
    );
    if (sent.result) {
      this.mailer.send(this.invitationMail(sent.result.member, sent.result.invitation));
    }
    return sent.reply;
  }

  /** The signed-in member a console write acts as, locked; refused once they are gone. */
  private async activeActor(
    tx: EntityManager,
    workspaceId: string,
    id: string,
  ): Promise<MemberRow> {
    const actor = await findMemberRow(tx, workspaceId, id, true).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'not_found') {
        throw new DomainError('forbidden', 'You are no longer a member of this workspace');
      }
      throw error;
    });
    if (actor.status !== 'active') {
      throw new DomainError('forbidden', 'You are no longer a member of this workspace');
    }
    return actor;
  }

  private record(
    tx: EntityManager,
    workspaceId: string,
    by: Pick<ActivityRecord, 'source' | 'actor'>,
    member: MemberView,
    entry: Pick<ActivityRecord, 'action' | 'changes'>,
  ): Promise<void> {
    return this.activity.record(tx, workspaceId, {
      ...by,
      ...entry,
      recordType: 'member',
      recordId: member.id,
      recordName: member.email,
    });
  }

  /** Admin: the open invitations of a workspace (not accepted, not expired), oldest first. */
  async listInvitations(input: InvitationListInput): Promise<InvitationView[]> {
    // 404 for a workspace the gateway never stated facts of: it has no such workspace.
    if (!(await this.plans.of(input.workspace))) {
      throw new DomainError('not_found', `Workspace ${input.workspace} not found`);
    }
    const rows = await openInvitations(this.db, input.workspace);
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      role: row.role,
      expires_at: row.expires_at.toISOString(),
    }));
  }

  /**
   * Admin: a new link for an open invitation whose e-mail was lost (the token is not stored,
   * so it cannot be shown again). The old link stops working, the new one is valid for
   * INVITATION_TTL_DAYS, e-mailed, and printed this once for the operator to pass on.
   */
  async renewInvitation(input: InvitationRenewInput): Promise<RenewedInvitationView> {
    const token = newToken();
    const renewed = await this.db.transaction(async (tx) => {
      const row = await renewOpenInvitation(tx, input.id, hashToken(token), INVITATION_TTL_DAYS);
      if (row) {
        await this.activity.record(tx, row.workspace_id, {
          source: 'cli',
          actor: SYSTEM_ACTOR,
          recordType: 'member',
          recordId: row.member_id,
          recordName: row.email,
          action: 'invitation_resent',
        });
      }
      return row;
    });
    if (!renewed) throw await this.notRenewable(input.id);
    const view = {
      id: input.id,
      email: renewed.email,
      role: renewed.role,
      token,
      expires_at: renewed.expires_at.toISOString(),
      accept_url: consoleLink(this.config.PUBLIC_BASE_URL, 'invitations/accept', token),
    };
    this.mailer.send(this.invitationMail(renewed, { token, expires_at: renewed.expires_at }));
    return view;
  }

  /** Why an invitation was not renewed: unknown, accepted, or expired. */
  private async notRenewable(id: string): Promise<DomainError> {
    const row = await invitationState(this.db, id);
    if (!row) return new DomainError('not_found', `Invitation ${id} not found`);
    if (row.accepted_at) {
      return new DomainError('conflict', 'This invitation has already been accepted');
    }
    return new DomainError(
      'conflict',
      `This invitation expired at ${row.expires_at.toISOString()}; invite the e-mail again`,
    );
  }

  /**
   * The link in the e-mail and `invitation accept`: the member becomes active and takes a
   * seat. The register does not own plans: the seat limit is its copy of the gateway's plan
   * facts (ADR 0019), not a call back to the gateway.
   */
  async accept(input: InvitationAcceptInput): Promise<MemberView> {
    const found = await findInvitationRow(this.db.manager, hashToken(input.token), false);
    assertAcceptable(found);
    const workspace = await this.plans.of(found.workspace_id);
    if (!workspace) {
      // The workspace's facts are late (the gateway's relay or the broker is behind): nothing
      // is written, and the same link works once they arrive.
      throw new DomainError(
        'unavailable',
        `The plan of workspace ${found.workspace_id} has not reached the register yet; try again in a moment`,
      );
    }
    const seats = workspace.limits.seats;
    return this.writes.run(found.workspace_id, async (tx) => {
      const seatsUsed = await lockMemberCount(tx, found.workspace_id);
      // Re-read under the lock: a concurrent accept of the same token must not win twice.
      const invitation = await findInvitationRow(tx, hashToken(input.token), true);
      assertAcceptable(invitation);
      if (wouldExceed(seats, seatsUsed)) {
        throw new DomainError(
          'limit_reached',
          limitReachedMessage('seats', seats ?? 0, workspace.plan),
        );
      }
      await markInvitationAccepted(tx, invitation.id);
      await activateMember(tx, invitation.member_id);
      await addSeat(tx, invitation.workspace_id);
      const joined = await findMemberRow(tx, invitation.workspace_id, invitation.member_id);
      await this.record(
        tx,
        invitation.workspace_id,
        input.via ? { source: input.via, actor: memberActor(joined).actor } : CLI,
        toMemberView(joined),
        { action: 'joined', changes: [{ field: 'status', from: 'invited', to: 'active' }] },
      );
      if (seats !== null && seatsUsed + 1 === seats) {
        // This acceptance took the last seat: one event per crossing, as for assets.
        await this.outbox.write(tx, invitation.workspace_id, 'plan.limit_reached', {
          workspace: { id: invitation.workspace_id },
          plan: workspace.plan,
          limit: 'seats',
          value: seats,
        });
      }
      return toMemberView(joined);
    });
  }

  /**
   * Admin: the owner of a workspace, active at once (`workspace create --owner-email`). The
   * owner takes a seat; it is created with its workspace, so it is not refused for lack of one.
   */
  async createOwner(input: OwnerCreateInput): Promise<MemberView> {
    const email = input.email.trim();
    try {
      return await this.db.transaction(async (tx) => {
        await lockMemberCount(tx, input.workspace);
        const id = newId('usr');
        await insertOwner(tx, {
          id,
          workspace_id: input.workspace,
          email,
          name: input.name?.trim() ?? null,
        });
        await addSeat(tx, input.workspace);
        const owner = toMemberView(await findMemberRow(tx, input.workspace, id));
        await this.record(tx, input.workspace, CLI, owner, {
          action: 'created',
          changes: [{ field: 'role', from: null, to: 'owner' }],
        });
        return owner;
      });
    } catch (error) {
      throw translateEmailConflict(error, alreadyMember(email));
    }
  }

  private invitationMail(
    member: Pick<MemberView, 'email' | 'role'>,
    invitation: Pick<IssuedInvitation, 'token' | 'expires_at'>,
  ) {
    // The console's accept screen signs the new member in; POST /api/v1/invitations/accept
    // still takes the same token.
    const link = consoleLink(this.config.PUBLIC_BASE_URL, 'invitations/accept', invitation.token);
    return {
      to: member.email,
      subject: 'You are invited to a Custodian workspace',
      text: [
        // No text the caller chose (the name) goes into the mail: it is not a relay.
        'Hello,',
        '',
        `You have been invited to join a Custodian workspace as ${member.role}.`,
        `Accept the invitation by opening this link:`,
        '',
        link,
        '',
        `The link is valid until ${invitation.expires_at.toISOString()}.`,
      ].join('\n'),
    };
  }
}

/** The admin CLI's changes: no member or key made them. */
const CLI: Pick<ActivityRecord, 'source' | 'actor'> = { source: 'cli', actor: SYSTEM_ACTOR };

/** A signed-in member acting in the console, named by e-mail. */
function memberActor(member: MemberRow): Pick<ActivityRecord, 'source' | 'actor'> {
  return { source: 'console', actor: { type: 'member', id: member.id, name: member.email } };
}

function assertAcceptable(invitation: InvitationRow): void {
  if (invitation.accepted_at) {
    throw new DomainError('conflict', 'This invitation has already been accepted');
  }
  if (invitation.expires_at.getTime() <= Date.now()) {
    throw new DomainError(
      'conflict',
      `This invitation expired at ${invitation.expires_at.toISOString()}; ask for a new one`,
    );
  }
}

/** A new invitation of the member, and its token (only its hash is stored). */
async function issueInvitation(
  tx: EntityManager,
  workspaceId: string,
  memberId: string,
): Promise<IssuedInvitation> {
  const token = newToken();
  const stored = await insertInvitation(
    tx,
    {
      id: newId('inv'),
      workspace_id: workspaceId,
      member_id: memberId,
      token_hash: hashToken(token),
    },
    INVITATION_TTL_DAYS,
  );
  return { ...stored, token };
}

/**
 * Takes the workspace's counter row lock (shared with asset creates) and returns the seats in
 * use: acceptances racing for the last seat are serialised, so the count is exact.
 */
async function lockMemberCount(tx: EntityManager, workspaceId: string): Promise<number> {
  return (await lockWorkspaceCounters(tx, workspaceId)).member_count;
}

async function addSeat(tx: EntityManager, workspaceId: string): Promise<void> {
  await tx.query(
    `UPDATE register.workspace_counters SET member_count = member_count + 1
     WHERE workspace_id = $1`,
    [workspaceId],
  );
}

function alreadyMember(email: string): DomainError {
  return new DomainError('conflict', `${email} is already a member of this workspace`);
}

function alreadyInvited(email: string): DomainError {
  return new DomainError('conflict', `${email} is already invited to this workspace`);
}
