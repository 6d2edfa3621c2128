import {
  RegisterAdminPatterns,
  RegisterPatterns,
  type InvitationView,
  type MemberView,
  type RegisterRequest,
} from '@custodian/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { REGISTER_ADMIN_TRANSPORT, REGISTER_RPC_TRANSPORT } from '../rpc/rpc-server.handle';
import { MembersService } from './members.service';

/** Members on the API queue, with the caller the gateway resolved. */
@Controller()
export class MembersRpcController {
  constructor(private readonly members: MembersService) {}

  @MessagePattern(RegisterPatterns.membersList, REGISTER_RPC_TRANSPORT)
  list(@Payload() req: RegisterRequest<object>): Promise<MemberView[]> {
    return this.members.list(req.caller);
  }

  @MessagePattern(RegisterPatterns.membersInvite, REGISTER_RPC_TRANSPORT)
  invite(@Payload() req: RegisterRequest<{ body: unknown }>): Promise<MemberView> {
    return this.members.invite(req.caller, req.payload.body);
  }

  @MessagePattern(RegisterPatterns.membersUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() req: RegisterRequest<{ id: string; body: unknown }>): Promise<MemberView> {
    return this.members.update(req.caller, req.payload.id, req.payload.body);
  }
}

/** Invitations and owners on the register's admin queue (admin CLI, gateway, accept link). */
@Controller()
export class MembersAdminRpcController {
  constructor(private readonly members: MembersService) {}

  @MessagePattern(RegisterAdminPatterns.invitationList, REGISTER_ADMIN_TRANSPORT)
  listInvitations(@Payload() input: unknown): Promise<InvitationView[]> {
    return this.members.listInvitations(input);
  }

  @MessagePattern(RegisterAdminPatterns.invitationAccept, REGISTER_ADMIN_TRANSPORT)
  accept(@Payload() input: unknown): Promise<MemberView> {
    return this.members.accept(input);
  }

  @MessagePattern(RegisterAdminPatterns.ownerCreate, REGISTER_ADMIN_TRANSPORT)
  createOwner(@Payload() input: unknown): Promise<MemberView> {
    return this.members.createOwner(input);
  }
}
