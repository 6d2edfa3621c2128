import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { useNavigate } from 'react-router';
import { selectWorkspace } from '../api/session.api';
import { ErrorNotice } from '../shared/notices';
import { useSession } from '../shared/session';

/** The header's workspace: a switcher for a member of several, else just its name. */
export function WorkspaceSwitcher() {
  const { session, replace } = useSession();
  const navigate = useNavigate();
  const id = useId();
  const switching = useMutation({ mutationFn: (id: string) => selectWorkspace(id) });

  if (session.memberships.length < 2) {
    return session.workspace ? (
      <span className="workspace-name">{session.workspace.name}</span>
    ) : null;
  }

  function pick(workspaceId: string) {
    switching.mutate(workspaceId, {
      onSuccess: (next) => {
        // Another workspace empties the query cache (shared/session.tsx).
        replace(next);
        void navigate('/');
      },
    });
  }

  return (
    <div className="switcher">
      <label htmlFor={id} className="visually-hidden">
        Workspace
      </label>
      <select
        id={id}
        value={session.workspace?.id ?? ''}
        disabled={switching.isPending}
        onChange={(event) => pick(event.target.value)}
      >
        {!session.workspace && (
          <option value="" disabled>
            Pick a workspace
          </option>
        )}
        {session.memberships.map((membership) => (
          <option key={membership.workspace_id} value={membership.workspace_id}>
            {membership.workspace_name}
          </option>
        ))}
      </select>
      <ErrorNotice error={switching.error} />
    </div>
  );
}
