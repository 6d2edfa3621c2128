import type { Permission } from '@custodian/console-client';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { can } from '../shared/permissions';
import { useSession } from '../shared/session';

function useHere(): string {
  const location = useLocation();
  return encodeURIComponent(location.pathname + location.search);
}

/** Screens for a signed-in person; anyone else goes to sign in, and comes back after. */
export function RequireSignIn() {
  const { session } = useSession();
  const here = useHere();
  if (!session.signed_in) return <Navigate to={`/sign-in?next=${here}`} replace />;
  return <Outlet />;
}

/** Screens of one workspace; until one is picked, the picker. */
export function RequireWorkspace() {
  const { session } = useSession();
  const here = useHere();
  if (!session.signed_in) return <Navigate to={`/sign-in?next=${here}`} replace />;
  if (!session.workspace) return <Navigate to={`/workspaces?next=${here}`} replace />;
  return <Outlet />;
}

/** A screen the member's role may not open says so, instead of failing on its first call. */
export function RequirePermission({
  permission,
  action,
  children,
}: {
  permission: Permission;
  action: string;
  children: ReactNode;
}) {
  const { session } = useSession();
  if (can(session, permission)) return children;
  return (
    <div className="page">
      <p className="notice notice-error" role="alert">
        Your role ({session.member?.role ?? 'none'}) cannot {action}.
      </p>
    </div>
  );
}
