import {
  InviteMemberInput,
  Member,
  UpdateMemberInput,
  RegisterAdminRpc,
  RegisterRpc,
  type MemberView,
} from '@custodian/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiIdParam } from '../../http/api-docs.decorators';
import { ApiConditionalWrite, IfMatch } from '../../http/entity-tags';
import { RegisterAdminClient } from '../../register-client/register-admin-client';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';
import { ConsoleRegister } from './console-register';

/** The workspace's members (logins): who they are, and removing one. */
@ApiTags('Members')
@Controller('console/api/members')
export class ConsoleMembersController {
  constructor(
    private readonly register: ConsoleRegister,
    private readonly admin: RegisterAdminClient,
  ) {}

  @Get()
  @ConsoleAccess('members.view')
  @ApiOperation({
    operationId: 'listMembers',
    summary: 'Members of the workspace',
    description: 'Oldest first, invited ones included, as `GET /api/v1/members` lists them.',
  })
  @ApiOkResponse({ type: [Member], description: 'OK.' })
  list(@Caller() caller: ConsoleCaller): Promise<MemberView[]> {
    return this.register.call(RegisterRpc.membersList, caller, {});
  }

  @Post()
  @ConsoleAccess('members.manage')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'inviteMember',
    summary: 'Invite a member',
    description:
      'As `POST /api/v1/members`: the invitation e-mail carries the link that signs the new ' +
      'member in; the seat is taken when it is accepted. Roles admin, manager or member (owners ' +
      'are made with the admin CLI). Fires `member.invited`.',
  })
  @ApiCreatedResponse({ type: Member, description: 'Invited.' })
  @ApiErrors(409)
  invite(@Caller() caller: ConsoleCaller, @Body() body: InviteMemberInput): Promise<MemberView> {
    return this.register.call(RegisterRpc.membersInvite, caller, { body });
  }

  @Delete(':id')
  @ConsoleAccess('members.manage')
  @ApiIdParam('id', 'member')
  @ApiOperation({
    operationId: 'removeMember',
    summary: 'Remove a member',
    description:
      "Roles up to one's own; only an owner removes an owner; nobody removes themselves. An " +
      "active member's seat is freed and their console sessions end (their next request is " +
      "refused); an invited member's invitation is cancelled. Fires `member.removed`.",
  })
  @ApiOkResponse({ type: Member, description: 'The member as it was.' })
  @ApiErrors(404, 409)
  remove(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<MemberView> {
    return this.admin.call(
      RegisterAdminRpc.memberRemove,
      {
        workspace: caller.workspaceId,
        id,
        actor: caller.memberId,
      },
      caller.identity,
    );
  }

  @Patch(':id')
  @ConsoleAccess('members.manage')
  @ApiIdParam('id', 'member')
  @ApiOperation({
    operationId: 'changeMemberRole',
    summary: "Change a member's role",
    description:
      "Within one's own role: an admin gives and takes admin, manager and member; only an " +
      'owner makes or unmakes an owner; nobody changes their own role. Their next ' +
      'console request already has the new role.',
  })
  @ApiOkResponse({ type: Member, description: 'The member with the new role.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 403, 404, 409, 412)
  changeRole(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: UpdateMemberInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<MemberView> {
    return this.admin.call(
      RegisterAdminRpc.memberRole,
      {
        workspace: caller.workspaceId,
        id,
        role: body.role,
        actor: caller.memberId,
        ...(ifMatch ? { if_match: ifMatch } : {}),
      },
      caller.identity,
    );
  }

  @Post(':id/invitation')
  @ConsoleAccess('members.manage')
  @HttpCode(200)
  @ApiIdParam('id', 'member')
  @ApiOperation({
    operationId: 'resendInvitation',
    summary: 'Send an invited member a new link',
    description:
      'A new invitation e-mail with a new link, valid for 7 days; the previous link stops ' +
      'working. Also for an invitation that expired. To cancel an invitation, remove the member.',
  })
  @ApiOkResponse({ type: Member, description: 'The invited member.' })
  @ApiErrors(404, 409)
  resend(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<MemberView> {
    return this.admin.call(
      RegisterAdminRpc.invitationResend,
      {
        workspace: caller.workspaceId,
        id,
        actor: caller.memberId,
      },
      caller.identity,
    );
  }
}
