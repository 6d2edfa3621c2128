import { Member, RegisterAdminRpc, RegisterRpc, type MemberView } from '@custodian/contracts';
import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiIdParam } from '../../openapi/api-docs.decorators';
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
    return this.admin.call(RegisterAdminRpc.memberRemove, {
      workspace: caller.workspaceId,
      id,
      actor: caller.memberId,
    });
  }
}
