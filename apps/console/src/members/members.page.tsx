import type { Member } from '@custodian/console-client';
import { useState } from 'react';
import { changeMemberRole, listMembers, removeMember, resendInvitation } from '../api/members.api';
import { useSession } from '../app/session-context';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { formatDate } from '../shared/format';
import { ErrorNotice, Loading, Notice } from '../shared/notices';
import { can } from '../shared/permissions';
import { useAction } from '../shared/use-action';
import { useLoad } from '../shared/use-load';
import { usePageTitle } from '../shared/use-page-title';
import { InviteForm } from './invite-form';

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
  const [members, { update }] = useLoad(listMembers, []);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [removed, setRemoved] = useState<Member | null>(null);
  const [invited, setInvited] = useState<Member | null>(null);
  const removal = useAction(removeMember);
  const roleChange = useAction(changeMemberRole);
  const resend = useAction(resendInvitation);
  const [changed, setChanged] = useState<string | null>(null);

  async function setRole(member: Member, role: Member['role']) {
    const answer = await roleChange.run(member.id, role);
    if (!answer) return;
    update((list) => list.map((shown) => (shown.id === member.id ? answer.value : shown)));
    setChanged(`${who(member)} is now ${answer.value.role}.`);
  }

  async function sendAgain(member: Member) {
    const answer = await resend.run(member.id);
    if (answer)
      setChanged(`A new invitation link is on its way to ${member.email}, valid for 7 days.`);
  }

  async function confirmRemove() {
    if (!removing) return;
    const done = await removal.run(removing.id);
    if (!done) return;
    update((list) => list.filter((member) => member.id !== done.value.id));
    setInvited(null);
    setChanged(null);
    setRemoved(done.value);
    setRemoving(null);
  }

  function showInvited(member: Member) {
    update((list) => [...list.filter((shown) => shown.id !== member.id), member]);
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
      {members.status === 'loading' && <Loading what="members" />}
      {members.status === 'failed' && <ErrorNotice error={members.error} />}
      {members.status === 'ready' && (
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
              {members.data.map((member) => (
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
                          disabled={roleChange.busy}
                          onChange={(event) =>
                            void setRole(member, event.target.value as Member['role'])
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
                          disabled={resend.busy}
                          onClick={() => void sendAgain(member)}
                        >
                          Resend
                          <span className="visually-hidden"> the invitation of {who(member)}</span>
                        </button>
                      )}{' '}
                      {removable(session.member?.role, session.member?.id, member) && (
                        <button
                          type="button"
                          className="button-small button-danger-quiet"
                          onClick={() => {
                            removal.clearError();
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
      {manage && <InviteForm onInvited={showInvited} />}
      <ConfirmDialog
        open={removing !== null}
        title={removing?.status === 'invited' ? 'Cancel this invitation?' : 'Remove this member?'}
        confirmLabel={removing?.status === 'invited' ? 'Cancel invitation' : 'Remove member'}
        danger
        busy={removal.busy}
        error={removal.error}
        onConfirm={() => void confirmRemove()}
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
