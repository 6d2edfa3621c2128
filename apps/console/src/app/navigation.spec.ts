import type { Permission, Session } from '@custodian/console-client';
import { navSections } from './navigation';

function session(permissions: Permission[], workspaces = 1): Session {
  const memberships = [
    { workspace_id: 'wsp_1', workspace_name: 'Acme', plan: 'pro' as const, role: 'owner' as const },
    {
      workspace_id: 'wsp_2',
      workspace_name: 'Globex',
      plan: 'pro' as const,
      role: 'owner' as const,
    },
  ].slice(0, workspaces);
  return {
    signed_in: true,
    csrf_token: 'csrf',
    email: 'ada@example.com',
    workspace: { id: 'wsp_1', name: 'Acme', plan: 'pro' },
    member: { id: 'mem_1', role: 'owner', name: 'Ada' },
    permissions,
    memberships,
  };
}

const summary = (sections: ReturnType<typeof navSections>) =>
  sections.map((section) => [section.heading, section.items.map((item) => item.label)]);

describe('navSections', () => {
  it('groups every screen of an owner of several workspaces', () => {
    const owner = session(
      [
        'workspace.view',
        'keys.view',
        'webhooks.view',
        'assets.view',
        'assets.scan',
        'people.view',
        'members.view',
        'requests.view',
        'bookings.view',
        'licenses.view',
        'maintenance.view',
        'reminders.view',
        'imports.manage',
      ],
      2,
    );
    expect(summary(navSections(owner))).toEqual([
      [
        'Register',
        [
          'Assets',
          'People',
          'Requests',
          'Bookings',
          'Calendar',
          'Licences',
          'Maintenance',
          'Reminders',
          'Scan',
          'Imports',
        ],
      ],
      ['Integrations', ['API keys', 'Webhooks', 'Delivery log']],
      ['Workspace', ['Members', 'Activity', 'Plan & usage', 'Workspaces', 'Account']],
    ]);
  });

  it('leaves out the screens a role cannot open, and a section left empty', () => {
    const member = session(['workspace.view', 'assets.view', 'people.view', 'members.view']);
    expect(summary(navSections(member))).toEqual([
      ['Register', ['Assets', 'People']],
      ['Workspace', ['Members', 'Activity', 'Plan & usage', 'Account']],
    ]);
    expect(navSections(member).flatMap((section) => section.items.map((item) => item.to))).toEqual([
      '/assets',
      '/people',
      '/members',
      '/activity',
      '/usage',
      '/account',
    ]);
  });
});
