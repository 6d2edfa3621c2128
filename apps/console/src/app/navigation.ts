import type { Session } from '@custodian/console-client';
import { can } from '../shared/permissions';

export interface NavItem {
  to: string;
  label: string;
}

export interface NavSection {
  heading: string;
  items: NavItem[];
}

/** Above the sections, for everyone in a workspace. */
export const OVERVIEW: NavItem = { to: '/', label: 'Overview' };

/**
 * The sidebar's sections under the overview: only the screens the member's role opens, and no
 * section left without one.
 */
export function navSections(session: Session): NavSection[] {
  const item = (shown: boolean, to: string, label: string) => (shown ? [{ to, label }] : []);
  const sections: NavSection[] = [
    {
      heading: 'Register',
      items: [
        ...item(can(session, 'assets.view'), '/assets', 'Assets'),
        ...item(can(session, 'people.view'), '/people', 'People'),
        ...item(can(session, 'locations.view'), '/locations', 'Locations'),
        ...item(can(session, 'categories.view'), '/categories', 'Categories'),
        ...item(can(session, 'requests.view'), '/requests', 'Requests'),
        ...item(can(session, 'bookings.view'), '/bookings', 'Bookings'),
        ...item(can(session, 'bookings.view'), '/calendar', 'Calendar'),
        ...item(can(session, 'licenses.view'), '/licenses', 'Licences'),
        ...item(can(session, 'maintenance.view'), '/maintenance', 'Maintenance'),
        ...item(can(session, 'reminders.view'), '/reminders', 'Reminders'),
        ...item(can(session, 'audits.view'), '/audits', 'Audits'),
        ...item(can(session, 'assets.scan'), '/scan', 'Scan'),
        ...item(can(session, 'imports.manage'), '/imports', 'Imports'),
      ],
    },
    {
      heading: 'Integrations',
      items: [
        ...item(can(session, 'keys.view'), '/keys', 'API keys'),
        ...item(can(session, 'webhooks.view'), '/webhooks', 'Webhooks'),
        ...item(can(session, 'webhooks.view'), '/deliveries', 'Delivery log'),
      ],
    },
    {
      heading: 'Workspace',
      items: [
        ...item(can(session, 'members.view'), '/members', 'Members'),
        ...item(can(session, 'workspace.view'), '/activity', 'Activity'),
        ...item(can(session, 'workspace.view'), '/usage', 'Plan & usage'),
        ...item(session.memberships.length > 1, '/workspaces', 'Workspaces'),
        { to: '/account', label: 'Account' },
      ],
    },
  ];
  return sections.filter((section) => section.items.length > 0);
}
