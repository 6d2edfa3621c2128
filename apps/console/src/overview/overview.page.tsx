import { Link } from 'react-router';
import { can } from '../shared/permissions';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { DueSoon } from './due-soon';

export function OverviewPage() {
  usePageTitle('Overview');
  const { session } = useSession();
  const { workspace, member } = session;
  if (!workspace || !member) return null;

  const links = [
    can(session, 'keys.view') && {
      to: '/keys',
      title: 'API keys',
      text: can(session, 'keys.manage')
        ? 'Create keys for your integrations and revoke them.'
        : 'See the keys of this workspace and when they were last used.',
    },
    can(session, 'webhooks.view') && {
      to: '/webhooks',
      title: 'Webhooks',
      text: can(session, 'webhooks.manage')
        ? 'Add endpoints, choose their events, send a test ping.'
        : 'See the endpoints events are sent to and how they are doing.',
    },
    can(session, 'webhooks.view') && {
      to: '/deliveries',
      title: 'Delivery log',
      text: can(session, 'webhooks.manage')
        ? 'Every delivery and its attempts; resend what failed.'
        : 'Every delivery and its attempts.',
    },
    {
      to: '/usage',
      title: 'Plan & usage',
      text: 'What the plan allows, what is used of it, and the limits reached.',
    },
    { to: '/account', title: 'Account', text: 'Set a password, or sign out.' },
  ].filter((link) => link !== false);

  return (
    <div className="page">
      <h1>{workspace.name}</h1>
      <dl className="facts">
        <div>
          <dt>Plan</dt>
          <dd>{workspace.plan}</dd>
        </div>
        <div>
          <dt>Your role</dt>
          <dd>{member.role}</dd>
        </div>
        <div>
          <dt>Signed in as</dt>
          <dd>{session.email}</dd>
        </div>
      </dl>
      <DueSoon />
      <ul className="tiles">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="tile">
              <span className="tile-title">{link.title}</span>
              <span className="tile-text">{link.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
