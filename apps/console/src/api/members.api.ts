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
