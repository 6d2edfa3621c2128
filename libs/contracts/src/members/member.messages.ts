import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { READ } from '../rpc/message-options';
import { CallerMessage, ConditionalRecordMessage } from '../rpc/messages';
import {
  InvitationAcceptInput,
  InvitationListInput,
  InvitationRenewInput,
  InviteMemberInput,
  MemberRemoveInput,
  MemberRoleInput,
  OwnerCreateInput,
  UpdateMemberInput,
} from './member.inputs';
import type { InvitationView, MemberView, RenewedInvitationView } from './member.views';

export class InviteMemberMessage extends CallerMessage {
  @ValidateNested() @Type(() => InviteMemberInput) body!: InviteMemberInput;
}

export class UpdateMemberMessage extends ConditionalRecordMessage {
  @ValidateNested() @Type(() => UpdateMemberInput) body!: UpdateMemberInput;
}

/** The members of the register's API queue (RegisterRpc). */
export const MEMBER_RPC = {
  membersList: rpc('members.list', CallerMessage, reply<MemberView[]>(), READ),
  membersInvite: rpc('members.invite', InviteMemberMessage, reply<MemberView>()),
  membersUpdate: rpc('members.update', UpdateMemberMessage, reply<MemberView>()),
};

/** The members and invitations of the register's admin queue (RegisterAdminRpc). */
export const MEMBER_ADMIN_RPC = {
  invitationList: rpc('admin.invitation.list', InvitationListInput, reply<InvitationView[]>()),
  invitationRenew: rpc(
    'admin.invitation.renew',
    InvitationRenewInput,
    reply<RenewedInvitationView>(),
  ),
  invitationAccept: rpc('admin.invitation.accept', InvitationAcceptInput, reply<MemberView>()),
  ownerCreate: rpc('admin.member.owner', OwnerCreateInput, reply<MemberView>()),
};

/** The console's member management, on the register's admin queue (RegisterAdminRpc). */
export const MEMBER_CONSOLE_ADMIN_RPC = {
  /** The member as it was; `member.removed` fires, an active one's seat is freed. */
  memberRemove: rpc('admin.member.remove', MemberRemoveInput, reply<MemberView>()),
  /** The member with its new role, bounded by the actor's own role (read in the transaction). */
  memberRole: rpc('admin.member.role', MemberRoleInput, reply<MemberView>()),
  /** A new link for an invited member's open or expired invitation, e-mailed (no token back). */
  invitationResend: rpc('admin.invitation.resend', MemberRemoveInput, reply<MemberView>()),
};
