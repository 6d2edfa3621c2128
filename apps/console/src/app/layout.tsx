import { Link, Outlet, useLocation } from 'react-router';
import { ErrorNotice } from '../shared/notices';
import { can } from '../shared/permissions';
import { EndpointHealthBanner } from '../webhooks/endpoint-health-banner';
import { useSession, useSignOut } from '../shared/session';
import { ErrorBoundary } from './error-boundary';
import { Sidebar } from './sidebar';
import { WorkspaceSwitcher } from './workspace-switcher';

/**
 * Every screen: the header (product, workspace, who is signed in), the sidebar's navigation once
 * a workspace is picked, and the page.
 */
export function Layout() {
  const { session } = useSession();
  const location = useLocation();
  const leaving = useSignOut();
  const inWorkspace = session.signed_in && session.workspace !== null;

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          Custodian
        </Link>
        {session.signed_in && <WorkspaceSwitcher />}
        {session.signed_in && (
          <div className="who">
            <span className="who-email">{session.email}</span>
            <button
              type="button"
              className="button-quiet"
              disabled={leaving.isPending}
              onClick={() => leaving.mutate()}
            >
              Sign out
            </button>
          </div>
        )}
      </header>
      <div className={inWorkspace ? 'shell' : 'shell shell-plain'}>
        {inWorkspace && <Sidebar session={session} />}
        <main id="main" tabIndex={-1}>
          <ErrorNotice error={leaving.error} />
          {/* Keyed by workspace: a switch never shows the previous workspace's endpoints. */}
          {inWorkspace && can(session, 'webhooks.view') && (
            <EndpointHealthBanner key={session.workspace?.id} />
          )}
          {/* A new screen starts without the previous screen's error. */}
          <ErrorBoundary key={location.pathname}>
            <Outlet />
          </ErrorBoundary>
        </main>
      </div>
    </>
  );
}
