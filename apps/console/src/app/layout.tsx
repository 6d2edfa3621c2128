import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { signOut } from '../api/session.api';
import { ErrorNotice } from '../shared/notices';
import { navItems } from '../shared/permissions';
import { useAction } from '../shared/use-action';
import { ErrorBoundary } from './error-boundary';
import { useSession } from './session-context';
import { WorkspaceSwitcher } from './workspace-switcher';

/** Every screen: the header (product, workspace, navigation, who is signed in) and the page. */
export function Layout() {
  const { session, refresh } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const leaving = useAction(signOut);

  async function leave() {
    await leaving.run();
    await refresh();
    await navigate('/sign-in');
  }

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-inner">
          <Link to="/" className="brand">
            Custodian
          </Link>
          {session.signed_in && <WorkspaceSwitcher />}
          {session.signed_in && session.workspace && (
            <nav aria-label="Main">
              <ul>
                {navItems(session).map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} end={item.to === '/'}>
                      {item.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          {session.signed_in && (
            <div className="who">
              <span className="who-email">{session.email}</span>
              <button type="button" className="button-quiet" onClick={() => void leave()}>
                Sign out
              </button>
            </div>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <ErrorNotice error={leaving.error} />
        {/* A new screen starts without the previous screen's error. */}
        <ErrorBoundary key={location.pathname}>
          <Outlet />
        </ErrorBoundary>
      </main>
    </>
  );
}
