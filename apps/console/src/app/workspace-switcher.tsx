import { useId } from 'react';
import { useNavigate } from 'react-router';
import { selectWorkspace } from '../api/session.api';
import { ErrorNotice } from '../shared/notices';
import { useAction } from '../shared/use-action';
import { useSession } from './session-context';

/** The header's workspace: a switcher for a member of several, else just its name. */
export function WorkspaceSwitcher() {
  const { session, replace } = useSession();
  const navigate = useNavigate();
  const id = useId();
  const switching = useAction(selectWorkspace);

  if (session.memberships.length < 2) {
    return session.workspace ? (
      <span className="workspace-name">{session.workspace.name}</span>
    ) : null;
  }

  async function pick(workspaceId: string) {
    const next = await switching.run(workspaceId);
    if (!next) return;
    replace(next.value);
    await navigate('/');
  }

  return (
    <div className="switcher">
      <label htmlFor={id} className="visually-hidden">
        Workspace
      </label>
      <select
        id={id}
        value={session.workspace?.id ?? ''}
        disabled={switching.busy}
        onChange={(event) => void pick(event.target.value)}
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
