import type { Session } from '@custodian/console-client';
import { permissionsOf } from '@custodian/contracts/constants';
import { can, landingPath, safeNextPath } from './permissions';

function session(role: 'owner' | 'manager' | 'member', picked = true): Session {
  const workspace = { id: 'wsp_1', name: 'Acme', plan: 'pro' as const };
  return {
    signed_in: true,
    csrf_token: 'csrf',
    email: 'ada@example.com',
    workspace: picked ? workspace : null,
    member: picked ? { id: 'mem_1', role, name: 'Ada' } : null,
    permissions: picked ? permissionsOf(role) : [],
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
