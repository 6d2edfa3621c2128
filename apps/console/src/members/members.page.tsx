import type { Member } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { formatDate } from '../shared/format';
import { ErrorNotice, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { InviteForm } from './invite-form';
import {
  memberQueries,
  useChangeMemberRole,
  useRemoveMember,
  useResendInvitation,
} from './members.queries';

const RANK: Record<Member['role'], number> = { owner: 0, admin: 1, manager: 2, member: 3 };

const who = (member: Member) => member.name ?? member.email;

/**
 * Whether the signed-in member's role may remove `member` (the register decides again): roles
 * up to one's own, an owner only by an owner, never oneself.
 */
function removable(mine: Member['role'] | undefined, myId: string | undefined, member: Member) {
  if (!mine || member.id === myId) return false;
  if (member.role === 'owner') return mine === 'owner';
  return RANK[member.role] >= RANK[mine];
}

/** The roles `mine` may give: its own and those below (an owner gives every role). */
function grantable(mine: Member['role']): Member['role'][] {
  return (Object.keys(RANK) as Member['role'][]).filter((role) => RANK[role] >= RANK[mine]);
}

/** /members: who has a login to this workspace, their roles, invitations, and removing one. */
export function MembersPage() {
  usePageTitle('Members');
  const { session } = useSession();
  const manage = can(session, 'members.manage');
  const members = useQuery(memberQueries.list());
  const [removing, setRemoving] = useState<Member | null>(null);
  const [removed, setRemoved] = useState<Member | null>(null);
  const [invited, setInvited] = useState<Member | null>(null);
  const removal = useRemoveMember();
  const roleChange = useChangeMemberRole();
  const resend = useResendInvitation();
  const [changed, setChanged] = useState<string | null>(null);

  function setRole(member: Member, role: Member['role']) {
    roleChange.mutate(
      { id: member.id, role },
      { onSuccess: (answer) => setChanged(`${who(member)} is now ${answer.role}.`) },
    );
  }

  function sendAgain(member: Member) {
    resend.mutate(member.id, {
      onSuccess: () =>
        setChanged(`A new invitation link is on its way to ${member.email}, valid for 7 days.`),
    });
  }

  function confirmRemove() {
    if (!removing) return;
    removal.mutate(removing.id, {
      onSuccess: (done) => {
        setInvited(null);
        setChanged(null);
        setRemoved(done);
        setRemoving(null);
      },
    });
  }

  function showInvited(member: Member) {
    setRemoved(null);
    setInvited(member);
  }

  return (
    <div className="page">
      <h1>Members</h1>
      <p className="lead">
        People who sign in to this workspace. An invitation e-mails a link that signs the new member
        in; each active member takes a seat of the plan.
      </p>
      {removed && (
        <Notice tone="success">
          {who(removed)} is removed
          {removed.status === 'active'
            ? ': signed out of this workspace, and the seat is free.'
            : ': the invitation is cancelled.'}
        </Notice>
      )}
      {invited && (
        <Notice tone="success">
          {invited.email} is invited as {invited.role}: the e-mailed link is valid for 7 days.
        </Notice>
      )}
      {changed && <Notice tone="success">{changed}</Notice>}
      <ErrorNotice error={roleChange.error ?? resend.error} />
      <QueryState query={members} what="members">
        {(list) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Members of the workspace</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Joined</th>
                  {manage && (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {list.map((member) => (
                  <tr key={member.id}>
                    <td>{member.name ?? <span className="muted">—</span>}</td>
                    <td>{member.email}</td>
                    <td>
                      {manage &&
                      session.member &&
                      removable(session.member.role, session.member.id, member) ? (
                        <>
                          <label htmlFor={`role-${member.id}`} className="visually-hidden">
                            Role of {who(member)}
                          </label>
                          <select
                            id={`role-${member.id}`}
                            value={member.role}
                            disabled={roleChange.isPending}
                            onChange={(event) =>
                              setRole(member, event.target.value as Member['role'])
                            }
                          >
                            {grantable(session.member.role).map((role) => (
                              <option key={role} value={role}>
                                {role}
                              </option>
                            ))}
                          </select>
                        </>
                      ) : (
                        member.role
                      )}
                    </td>
                    <td>
                      {member.status === 'active' ? (
                        <span className="badge badge-on">Active</span>
                      ) : (
                        <span className="badge badge-pending">Invited</span>
                      )}
                    </td>
                    <td className="nowrap">{formatDate(member.joined_at, '—')}</td>
                    {manage && (
                      <td className="cell-actions">
                        {member.status === 'invited' && (
                          <button
                            type="button"
                            className="button-small"
                            disabled={resend.isPending}
                            onClick={() => sendAgain(member)}
                          >
                            Resend
                            <span className="visually-hidden">
                              {' '}
                              the invitation of {who(member)}
                            </span>
                          </button>
                        )}{' '}
                        {removable(session.member?.role, session.member?.id, member) && (
                          <button
                            type="button"
                            className="button-small button-danger-quiet"
                            onClick={() => {
                              removal.reset();
                              setRemoving(member);
                            }}
                          >
                            {member.status === 'invited' ? 'Cancel' : 'Remove'}
                            <span className="visually-hidden"> {who(member)}</span>
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      {manage && <InviteForm onInvited={showInvited} />}
      <ConfirmDialog
        open={removing !== null}
        title={removing?.status === 'invited' ? 'Cancel this invitation?' : 'Remove this member?'}
        confirmLabel={removing?.status === 'invited' ? 'Cancel invitation' : 'Remove member'}
        danger
        busy={removal.isPending}
        error={removal.error}
        onConfirm={confirmRemove}
        onClose={() => setRemoving(null)}
      >
        {removing && (
          <p>
            {who(removing)} ({removing.email}, {removing.role})
            {removing.status === 'active'
              ? ' loses access at once: their next request in the console is refused, and their seat is freed.'
              : "'s invitation is cancelled: the link stops working."}{' '}
            API keys they created keep working; revoke them under API keys.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
