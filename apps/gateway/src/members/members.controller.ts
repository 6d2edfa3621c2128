import {
  InviteMemberInput,
  Member,
  RegisterRpc,
  UpdateMemberInput,
  type MemberView,
} from '@custodian/contracts';
import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { RegisterClient } from '../register-client/register-client';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import type { RequestIdentity } from '@custodian/messaging';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiIdParam } from '../http/api-docs.decorators';
import { ApiConditionalWrite, IfMatch } from '../http/entity-tags';

/** HTTP face of the register's members; validation and the role rules live in the register. */
@ApiTags('Members')
@Controller('members')
export class MembersController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'listMembers',
    summary: 'List workspace members',
    description: 'The logins of the workspace (not people records), invited ones included.',
  })
  @ApiOkResponse({ type: [Member], description: 'OK.' })
  list(@Access() access: AccessRecord): Promise<MemberView[]> {
    return this.register.call(RegisterRpc.membersList, access, {});
  }

  @Post()
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'inviteMember',
    summary: 'Invite a member',
    description:
      'E-mails an invitation link; the seat is taken when it is accepted. The key acts as ' +
      'an `admin`, so it cannot invite owners. Fires `member.invited`. 409 when the e-mail is ' +
      'already a member or invited, or when 50 invitations are already open in the workspace.',
  })
  @ApiCreatedResponse({ type: Member, description: 'Created: the new resource.' })
  @ApiErrors(409, 422)
  invite(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: InviteMemberInput,
  ): Promise<MemberView> {
    return this.register.call(RegisterRpc.membersInvite, access, { body }, identity);
  }

  @Patch(':userId')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('userId', 'member')
  @ApiOperation({
    operationId: 'updateMember',
    summary: "Change a member's role",
    description:
      'Bounded by the role hierarchy: the key acts as an `admin`. A member has no single GET: ' +
      'the `ETag` for If-Match is the one its invitation or last change answered with.',
  })
  @ApiOkResponse({ type: Member, description: 'OK.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 412, 422)
  update(
    @Access() access: AccessRecord,
    @Param('userId') userId: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateMemberInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<MemberView> {
    return this.register.call(
      RegisterRpc.membersUpdate,
      access,
      { id: userId, body, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }
}
