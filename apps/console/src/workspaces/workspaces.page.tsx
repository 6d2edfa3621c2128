import { useMutation } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { selectWorkspace } from '../api/session.api';
import { ErrorNotice } from '../shared/notices';
import { safeNextPath } from '../shared/permissions';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';

export function WorkspacesPage() {
  usePageTitle('Workspaces');
  const { session, replace } = useSession();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const picking = useMutation({ mutationFn: (id: string) => selectWorkspace(id) });

  function pick(workspaceId: string) {
    picking.mutate(workspaceId, {
      onSuccess: (next) => {
        // Another workspace empties the query cache (shared/session.tsx).
        replace(next);
        void navigate(safeNextPath(search.get('next')) ?? '/', { replace: true });
      },
    });
  }

  return (
    <div className="page page-narrow">
      <h1>Pick a workspace</h1>
      <p>
        {session.email} is a member of {session.memberships.length} workspaces. You can switch later
        from the header.
      </p>
      <ErrorNotice error={picking.error} />
      <ul className="choice-list">
        {session.memberships.map((membership) => (
          <li key={membership.workspace_id}>
            <button
              type="button"
              className="choice"
              disabled={picking.isPending}
              aria-current={membership.workspace_id === session.workspace?.id ? 'true' : undefined}
              onClick={() => pick(membership.workspace_id)}
            >
              <span className="choice-title">{membership.workspace_name}</span>
              <span className="choice-detail">
                {membership.plan} plan · you are {membership.role}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
