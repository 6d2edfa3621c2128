import type { Permission, Session } from '@custodian/console-client';
import { can, landingPath, navItems, safeNextPath } from './permissions';

const PERMISSIONS_BY_ROLE: Record<string, Permission[]> = {
  owner: [
    'workspace.view',
    'keys.view',
    'keys.manage',
    'webhooks.view',
    'webhooks.manage',
    'webhooks.secrets',
    'assets.view',
    'assets.manage',
    'assets.scan',
    'people.view',
    'people.manage',
    'members.view',
    'members.manage',
  ],
  manager: [
    'workspace.view',
    'keys.view',
    'webhooks.view',
    'assets.view',
    'assets.manage',
    'assets.scan',
    'people.view',
    'people.manage',
    'members.view',
  ],
  member: ['workspace.view', 'assets.view', 'assets.scan', 'people.view', 'members.view'],
};

function session(role: 'owner' | 'manager' | 'member', picked = true): Session {
  const workspace = { id: 'wsp_1', name: 'Acme', plan: 'pro' as const };
  return {
    signed_in: true,
    csrf_token: 'csrf',
    email: 'ada@example.com',
    workspace: picked ? workspace : null,
    member: picked ? { id: 'mem_1', role, name: 'Ada' } : null,
    permissions: picked ? (PERMISSIONS_BY_ROLE[role] ?? []) : [],
    memberships: [{ workspace_id: 'wsp_1', workspace_name: 'Acme', plan: 'pro', role }],
  };
}

describe('can', () => {
  it("follows the session's permissions", () => {
    expect(can(session('manager'), 'keys.view')).toBe(true);
    expect(can(session('manager'), 'keys.manage')).toBe(false);
    expect(can(null, 'workspace.view')).toBe(false);
  });
});

describe('navItems', () => {
  it('shows every screen to an owner', () => {
    expect(navItems(session('owner')).map((item) => item.label)).toEqual([
      'Overview',
      'Assets',
      'People',
      'Scan',
      'Members',
      'API keys',
      'Webhooks',
      'Delivery log',
      'Activity',
      'Plan & usage',
      'Account',
    ]);
  });

  it('hides keys and webhooks from a member, who sees assets and people and scans', () => {
    expect(navItems(session('member')).map((item) => item.to)).toEqual([
      '/',
      '/assets',
      '/people',
      '/scan',
      '/members',
      '/activity',
      '/usage',
      '/account',
    ]);
  });
});

describe('landingPath', () => {
  it('goes to the picker until a workspace is picked, keeping where the person was going', () => {
    expect(landingPath(session('owner', false), '/keys')).toBe('/workspaces?next=%2Fkeys');
    expect(landingPath(session('owner', false), null)).toBe('/workspaces');
  });

  it('goes where the person was going, else to the overview', () => {
    expect(landingPath(session('owner'), '/keys')).toBe('/keys');
    expect(landingPath(session('owner'), null)).toBe('/');
  });
});

describe('safeNextPath', () => {
  it('keeps a path inside the console', () => {
    expect(safeNextPath('/deliveries?status=failed')).toBe('/deliveries?status=failed');
  });

  it('refuses anything that could leave the console', () => {
    for (const value of ['//evil.example', 'https://evil.example', '/\\evil.example', 'keys', '']) {
      expect(safeNextPath(value)).toBeNull();
    }
    expect(safeNextPath(null)).toBeNull();
  });
});
