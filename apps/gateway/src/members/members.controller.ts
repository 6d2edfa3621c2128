import {
  InviteMemberInput,
  RegisterRpc,
  UpdateMemberInput,
  type MemberView,
} from '@custodian/contracts';
import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiIdParam, ApiRoute } from '../openapi/api-docs.decorators';
import { RegisterClient } from '../register-client/register-client';

/** HTTP face of the register's members; validation and the role rules live in the register. */
@ApiTags('Members')
@Controller('members')
export class MembersController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  @ApiRoute({
    operationId: 'listMembers',
    summary: 'List workspace members',
    description: 'The logins of the workspace (not people records), invited ones included.',
    status: 200,
    response: { arrayOf: 'Member' },
  })
  list(@Access() access: AccessRecord): Promise<MemberView[]> {
    return this.register.call(RegisterRpc.membersList, access, {});
  }

  @Post()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiRoute({
    operationId: 'inviteMember',
    summary: 'Invite a member',
    description:
      'E-mails an invitation link; the seat is taken when it is accepted. The key acts as ' +
      'an `admin`, so it cannot invite owners. Fires `member.invited`.',
    status: 201,
    response: 'Member',
    body: 'InviteMemberInput',
    errors: [409],
  })
  invite(@Access() access: AccessRecord, @Body() body: InviteMemberInput): Promise<MemberView> {
    return this.register.call(RegisterRpc.membersInvite, access, { body });
  }

  @Patch(':userId')
  @RequiresScope('write')
  @ApiIdParam('userId', 'member')
  @ApiRoute({
    operationId: 'updateMember',
    summary: "Change a member's role",
    description: 'Bounded by the role hierarchy: the key acts as an `admin`.',
    status: 200,
    response: 'Member',
    body: 'UpdateMemberInput',
    errors: [404],
  })
  update(
    @Access() access: AccessRecord,
    @Param('userId') userId: string,
    @Body() body: UpdateMemberInput,
  ): Promise<MemberView> {
    return this.register.call(RegisterRpc.membersUpdate, access, { id: userId, body });
  }
}
