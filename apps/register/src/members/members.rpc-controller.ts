import {
  CallerMessage,
  InvitationAcceptInput,
  InvitationListInput,
  InvitationRenewInput,
  InviteMemberMessage,
  MemberRefInput,
  MemberRemoveInput,
  MemberRoleInput,
  OwnerCreateInput,
  RegisterAdminRpc,
  RegisterRpc,
  UpdateMemberMessage,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_ADMIN_TRANSPORT, REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { MembersService } from './members.service';

/** Members on the API queue, with the caller the gateway resolved. */
@Controller()
export class MembersRpcController {
  constructor(private readonly members: MembersService) {}

  @Handles(RegisterRpc.membersList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: CallerMessage) {
    return this.members.list(message.caller);
  }

  @Handles(RegisterRpc.membersInvite, REGISTER_RPC_TRANSPORT)
  invite(@Payload() message: InviteMemberMessage) {
    return this.members.invite(message.caller, message.body);
  }

  @Handles(RegisterRpc.membersUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() message: UpdateMemberMessage) {
    return this.members.update(message.caller, message.id, message.body, message.if_match);
  }
}

/**
 * Invitations, owners and one member on the register's admin queue (admin CLI, gateway, accept
 * link, console sessions).
 */
@Controller()
export class MembersAdminRpcController {
  constructor(private readonly members: MembersService) {}

  @Handles(RegisterAdminRpc.invitationList, REGISTER_ADMIN_TRANSPORT)
  listInvitations(@Payload() input: InvitationListInput) {
    return this.members.listInvitations(input);
  }

  @Handles(RegisterAdminRpc.invitationRenew, REGISTER_ADMIN_TRANSPORT)
  renewInvitation(@Payload() input: InvitationRenewInput) {
    return this.members.renewInvitation(input);
  }

  @Handles(RegisterAdminRpc.invitationAccept, REGISTER_ADMIN_TRANSPORT)
  accept(@Payload() input: InvitationAcceptInput) {
    return this.members.accept(input);
  }

  @Handles(RegisterAdminRpc.ownerCreate, REGISTER_ADMIN_TRANSPORT)
  createOwner(@Payload() input: OwnerCreateInput) {
    return this.members.createOwner(input);
  }

  @Handles(RegisterAdminRpc.memberGet, REGISTER_ADMIN_TRANSPORT)
  get(@Payload() input: MemberRefInput) {
    return this.members.get(input);
  }

  @Handles(RegisterAdminRpc.memberRemove, REGISTER_ADMIN_TRANSPORT)
  remove(@Payload() input: MemberRemoveInput) {
    return this.members.remove(input);
  }

  @Handles(RegisterAdminRpc.memberRole, REGISTER_ADMIN_TRANSPORT)
  setRole(@Payload() input: MemberRoleInput) {
    return this.members.setRole(input);
  }

  @Handles(RegisterAdminRpc.invitationResend, REGISTER_ADMIN_TRANSPORT)
  resend(@Payload() input: MemberRemoveInput) {
    return this.members.resendInvitation(input);
  }
}
