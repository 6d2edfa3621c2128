import { MEMBER_ROLES, type MemberRole } from '@custodian/contracts';
import {
  API_KEY_ROLE,
  inviteRefusal,
  removalRefusal,
  roleChangeRefusal,
  roleRank,
} from './member-roles';

describe('member roles', () => {
  it('ranks owner > admin > manager > member', () => {
    expect([...MEMBER_ROLES].sort((a, b) => roleRank(a) - roleRank(b))).toEqual([
      'owner',
      'admin',
      'manager',
      'member',
    ]);
  });

  it('has API keys act as admin', () => {
    expect(API_KEY_ROLE).toBe('admin');
  });

  describe('inviteRefusal', () => {
    it.each<MemberRole>(['admin', 'manager', 'member'])('lets an admin invite a %s', (role) => {
      expect(inviteRefusal('admin', role)).toBeNull();
    });

    it('refuses an admin inviting an owner, naming the role', () => {
      expect(inviteRefusal('admin', 'owner')).toMatch(/owner/);
    });

    it('lets an owner invite an owner', () => {
      expect(inviteRefusal('owner', 'owner')).toBeNull();
    });

    it.each<MemberRole>(['manager', 'member'])('refuses a %s inviting anyone', (actor) => {
      expect(inviteRefusal(actor, 'member')).toMatch(/cannot invite/);
    });
  });

  describe('roleChangeRefusal', () => {
    it.each<[MemberRole, MemberRole]>([
      ['member', 'manager'],
      ['manager', 'admin'],
      ['admin', 'member'],
      ['member', 'member'],
    ])('lets an admin change %s to %s', (current, next) => {
      expect(roleChangeRefusal('admin', current, next)).toBeNull();
    });

    it.each<MemberRole>(['admin', 'manager', 'member'])(
      'refuses an admin promoting a %s to owner',
      (current) => {
        expect(roleChangeRefusal('admin', current, 'owner')).toMatch(/role owner cannot be given/);
      },
    );

    it.each<MemberRole>(['owner', 'admin', 'member'])(
      "refuses an admin changing an owner's role (to %s)",
      (next) => {
        expect(roleChangeRefusal('admin', 'owner', next)).toMatch(/owner's role cannot be changed/);
      },
    );

    it('lets an owner do anything', () => {
      for (const current of MEMBER_ROLES) {
        for (const next of MEMBER_ROLES) {
          expect(roleChangeRefusal('owner', current, next)).toBeNull();
        }
      }
    });

    it('refuses a manager changing roles', () => {
      expect(roleChangeRefusal('manager', 'member', 'member')).toMatch(/cannot change/);
    });
  });

  describe('removalRefusal', () => {
    it('is the whole matrix: actors down the rows, targets across', () => {
      const matrix = MEMBER_ROLES.map((actor) =>
        MEMBER_ROLES.map((target) => (removalRefusal(actor, target) === null ? 'yes' : 'no')),
      );
      expect(matrix).toEqual([
        // owner, admin, manager, member
        ['yes', 'yes', 'yes', 'yes'], // owner
        ['no', 'yes', 'yes', 'yes'], // admin
        ['no', 'no', 'no', 'no'], // manager
        ['no', 'no', 'no', 'no'], // member
      ]);
    });

    it('says why, naming both roles', () => {
      expect(removalRefusal('admin', 'owner')).toBe('An owner cannot be removed by an admin');
      expect(removalRefusal('member', 'member')).toBe('A member cannot remove members');
    });
  });
});
