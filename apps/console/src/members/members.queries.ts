// The members' server state: the list, invitations, roles and removals.
import type { Member, MemberInvitation } from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  changeMemberRole,
  inviteMember,
  listMembers,
  removeMember,
  resendInvitation,
} from '../api/members.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const memberKeys = {
  list: () => [QUERY_ROOT.members, 'list'] as const,
};

export const memberQueries = {
  list: () => queryOptions({ queryKey: memberKeys.list(), queryFn: () => listMembers() }),
};

/** What a write to a member can change: the members, the plan's seats, the activity. */
const CHANGED_BY_MEMBER_WRITES = [
  QUERY_ROOT.members,
  QUERY_ROOT.usage,
  QUERY_ROOT.activity,
] as const;

function useMemberWrite<V>(write: (variables: V) => Promise<Member>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => write(variables),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_MEMBER_WRITES),
  });
}

export function useInviteMember() {
  return useMemberWrite((invitation: MemberInvitation) => inviteMember(invitation));
}

export function useRemoveMember() {
  return useMemberWrite((id: string) => removeMember(id));
}

export function useChangeMemberRole() {
  return useMemberWrite(({ id, role }: { id: string; role: Member['role'] }) =>
    changeMemberRole(id, role),
  );
}

/** A new invitation link: the member's row stays, the activity records it. */
export function useResendInvitation() {
  return useMemberWrite((id: string) => resendInvitation(id));
}
