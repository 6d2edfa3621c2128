import {
  AcceptInvitationBody,
  DomainError,
  Member,
  RegisterAdminRpc,
  type DomainErrorCode,
  type MemberView,
  type RawQuery,
} from '@custodian/contracts';
import { Body, Controller, Get, Header, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../access/public.decorator';
import { AdmissionService } from '../limits/admission.service';
import { ApiErrors } from '../http/api-docs.decorators';
import { RegisterAdminClient } from '../register-client/register-admin-client';
import { invitationPage } from './invitation-page';

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
    private readonly admission: AdmissionService,
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
    return invitationPage(typeof query.token === 'string' ? query.token : '');
  }

  @Post('accept')
  @Public()
  @ApiQuery({
    name: 'token',
    required: false,
    deprecated: true,
    description:
      'The token in the query string, as earlier callers and the invitation page send it; ' +
      'prefer the body, which no access log or proxy keeps.',
    schema: { type: 'string' },
  })
  @ApiOperation({
    operationId: 'acceptInvitation',
    summary: 'Accept an invitation',
    description:
      'Needs no API key: the token of the e-mailed link is the credential. Send it in the ' +
      'body, `{"token": "..."}`. Unknown tokens count as failed authentications of the ' +
      'client address (429 past the limit).',
  })
  @ApiBody({ type: AcceptInvitationBody, required: false })
  @ApiOkResponse({ type: Member, description: 'OK.' })
  @ApiErrors(400, 403, 404, 409, 429, 503, 504)
  @HttpCode(200)
  async accept(
    @Query() query: RawQuery,
    @Body() body: AcceptInvitationBody | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MemberView> {
    // The same per-address guard as failed key checks: a token is a credential, and guesses
    // must not reach the register at the rate a client can send them.
    const blocked = await this.admission.checkAddress(request.ip);
    if (blocked?.refusal) {
      void reply.headers(blocked.headers);
      throw blocked.refusal;
    }
    try {
      const token = tokenOf(body?.token, query.token);
      return await this.registerAdmin.call(RegisterAdminRpc.invitationAccept, {
        token,
        via: 'api',
      });
    } catch (error) {
      if (error instanceof DomainError && BAD_TOKEN.has(error.code)) {
        await this.admission.countFailedToken(request.ip);
      }
      throw error;
    }
  }
}

/**
 * The token of the body or the query string. A missing or repeated token goes on as '' and is
 * refused by the register like a malformed one (and counted as a failed token); two that
 * differ are a 400 that names them.
 */
function tokenOf(fromBody: string | undefined, fromQuery: unknown): string {
  const query =
    typeof fromQuery === 'string' ? fromQuery : fromQuery === undefined ? undefined : '';
  if (fromBody !== undefined && query !== undefined && fromBody !== query) {
    throw new DomainError(
      'invalid_input',
      'token is in both the body and the query string, and they differ; send it once, in the body',
    );
  }
  return fromBody ?? query ?? '';
}

/** What the register answers for a token that is missing, malformed or unknown. */
const BAD_TOKEN = new Set<DomainErrorCode>(['invalid_input', 'not_found']);
