import type { Member, MemberInvitation } from '@custodian/console-client';
import { type FormEvent, useState } from 'react';
import { ErrorNotice } from '../shared/notices';
import { useInviteMember } from './members.queries';

type InvitedRole = NonNullable<MemberInvitation['role']>;
const ROLES: Array<{ value: Exclude<InvitedRole, 'owner'>; label: string }> = [
  { value: 'member', label: 'Member: sees assets and people, scans' },
  { value: 'manager', label: 'Manager: runs the register, sees keys and the log' },
  { value: 'admin', label: 'Admin: also keys, webhooks and members' },
];

export function InviteForm({ onInvited }: { onInvited: (member: Member) => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Exclude<InvitedRole, 'owner'>>('member');
  const inviting = useInviteMember();

  function submit(event: FormEvent) {
    event.preventDefault();
    const invitation: MemberInvitation = { email: email.trim(), role };
    if (name.trim()) invitation.name = name.trim();
    inviting.mutate(invitation, {
      onSuccess: (invited) => {
        setEmail('');
        setName('');
        setRole('member');
        onInvited(invited);
      },
    });
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="invite">
      <h2 id="invite">Invite a member</h2>
      <div className="field">
        <label htmlFor="invite-email">E-mail</label>
        <input
          id="invite-email"
          type="email"
          required
          maxLength={320}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="invite-name">Name (optional)</label>
        <input
          id="invite-name"
          maxLength={200}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <fieldset className="field">
        <legend>Role</legend>
        {ROLES.map((option) => (
          <label className="inline" key={option.value}>
            <input
              type="radio"
              name="invite-role"
              value={option.value}
              checked={role === option.value}
              onChange={() => setRole(option.value)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <ErrorNotice error={inviting.error} />
      <button type="submit" className="button-primary" disabled={inviting.isPending}>
        {inviting.isPending ? 'Inviting…' : 'Send invitation'}
      </button>
    </form>
  );
}
