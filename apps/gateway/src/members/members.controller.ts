import {
  DomainError,
  InviteMemberInput,
  Member,
  RegisterAdminRpc,
  RegisterRpc,
  UpdateMemberInput,
  type DomainErrorCode,
  type MemberView,
  type RawQuery,
} from '@custodian/contracts';
import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccessRecord } from '../access/access-record';
import { Public } from '../access/public.decorator';
import { ClientAddressLimiter } from '../limits/client-address-limiter';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { RegisterAdminClient } from '../register-client/register-admin-client';
import { RegisterClient } from '../register-client/register-client';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, ApiIdParam } from '../openapi/api-docs.decorators';

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
  @HttpCode(201)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'inviteMember',
    summary: 'Invite a member',
    description:
      'E-mails an invitation link; the seat is taken when it is accepted. The key acts as ' +
      'an `admin`, so it cannot invite owners. Fires `member.invited`.',
  })
  @ApiCreatedResponse({ type: Member, description: 'Created: the new resource.' })
  @ApiErrors(409)
  invite(@Access() access: AccessRecord, @Body() body: InviteMemberInput): Promise<MemberView> {
    return this.register.call(RegisterRpc.membersInvite, access, { body });
  }

  @Patch(':userId')
  @RequiresScope('write')
  @ApiIdParam('userId', 'member')
  @ApiOperation({
    operationId: 'updateMember',
    summary: "Change a member's role",
    description: 'Bounded by the role hierarchy: the key acts as an `admin`.',
  })
  @ApiOkResponse({ type: Member, description: 'OK.' })
  @ApiErrors(404)
  update(
    @Access() access: AccessRecord,
    @Param('userId') userId: string,
    @Body() body: UpdateMemberInput,
  ): Promise<MemberView> {
    return this.register.call(RegisterRpc.membersUpdate, access, { id: userId, body });
  }
}

/**
 * The link of the invitation e-mail. It needs no API key (whoever holds the 256-bit token is
 * the invitee). Opening the link (GET) only shows a page with an Accept button: mail scanners
 * fetch links, and a GET that accepted would spend a seat for them. The button POSTs to the
 * same URL, and the register makes the member active if a seat is left.
 */
@ApiTags('Invitations')
@Controller('invitations')
export class InvitationsController {
  constructor(
    private readonly registerAdmin: RegisterAdminClient,
    private readonly addresses: ClientAddressLimiter,
  ) {}

  @Get('accept')
  @Public()
  @ApiOperation({
    operationId: 'invitationPage',
    summary: 'The invitation link',
    description:
      'The page the invitation e-mail links to; it only shows an Accept button, which posts ' +
      'to the same URL (mail scanners fetch links).',
  })
  @ApiQuery({ name: 'token', required: true, schema: { type: 'string' } })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'An HTML page.', schema: { type: 'string' } })
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  page(@Query() query: RawQuery): string {
    const token = typeof query.token === 'string' ? query.token : '';
    const action = `/api/v1/invitations/accept?token=${encodeURIComponent(token)}`;
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Custodian invitation</title>
<meta name="referrer" content="no-referrer"></head>
<body><h1>Join a Custodian workspace</h1>
<p>You have been invited to a Custodian workspace.</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Accept the invitation</button></form>
</body></html>`;
  }

  @Post('accept')
  @Public()
  @ApiQuery({ name: 'token', required: true, schema: { type: 'string' } })
  @ApiOperation({
    operationId: 'acceptInvitation',
    summary: 'Accept an invitation',
    description:
      'Needs no API key: the token of the e-mailed link is the credential. Unknown tokens ' +
      'count as failed authentications of the client address (429 past the limit).',
  })
  @ApiOkResponse({ type: Member, description: 'OK.' })
  @ApiErrors(400, 403, 404, 409, 429, 503, 504)
  @HttpCode(200)
  async accept(
    @Query() query: RawQuery,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MemberView> {
    // The same per-address guard as failed key checks: a token is a credential, and guesses
    // must not reach the register at the rate a client can send them.
    const blocked = await this.addresses.check(request.ip);
    if (blocked?.retryAfter) {
      void reply.headers(blocked.headers).header('retry-after', blocked.retryAfter);
      throw this.addresses.tooManyError();
    }
    try {
      // A missing or repeated token is refused by the register like a malformed one.
      const token = typeof query.token === 'string' ? query.token : '';
      return await this.registerAdmin.call(RegisterAdminRpc.invitationAccept, { token });
    } catch (error) {
      if (error instanceof DomainError && BAD_TOKEN.has(error.code)) {
        await this.addresses.countFailure(request.ip);
      }
      throw error;
    }
  }
}

/** What the register answers for a token that is missing, malformed or unknown. */
const BAD_TOKEN = new Set<DomainErrorCode>(['invalid_input', 'not_found']);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
