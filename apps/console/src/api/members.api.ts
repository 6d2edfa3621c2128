import type { Member, MemberInvitation } from '@custodian/console-client';
import { client, send } from './client';

export function listMembers(): Promise<Member[]> {
  return send('see members', client.GET('/console/api/members'), 'members.view');
}

export function removeMember(id: string): Promise<Member> {
  return send(
    'remove members',
    client.DELETE('/console/api/members/{id}', { params: { path: { id } } }),
    'members.manage',
  );
}

export function inviteMember(invitation: MemberInvitation): Promise<Member> {
  return send(
    'invite members',
    client.POST('/console/api/members', { body: invitation }),
    'members.manage',
  );
}

export function changeMemberRole(id: string, role: Member['role']): Promise<Member> {
  return send(
    'change roles',
    client.PATCH('/console/api/members/{id}', { params: { path: { id } }, body: { role } }),
    'members.manage',
  );
}

export function resendInvitation(id: string): Promise<Member> {
  return send(
    'invite members',
    client.POST('/console/api/members/{id}/invitation', { params: { path: { id } } }),
    'members.manage',
  );
}
