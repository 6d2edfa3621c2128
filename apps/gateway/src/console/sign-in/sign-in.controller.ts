import {
  ConsoleMessage,
  ConsoleSession,
  ConsoleSessionListItem,
  DomainError,
  PasswordSignInBody,
  PickWorkspaceBody,
  RegisterAdminRpc,
  SIGN_IN_LINK_TTL_MINUTES,
  SetPasswordBody,
  SignInLinkBody,
  SessionsEnded,
  SignInTokenBody,
  type DomainErrorCode,
} from '@custodian/contracts';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdmissionService } from '../../limits/admission.service';
import { ApiErrors } from '../../http/api-docs.decorators';
import { RegisterAdminClient } from '../../register-client/register-admin-client';
import { ConsoleOpen } from '../session/console-open.decorator';
import { ConsoleSessions } from './console-sessions';
import { SignInLimiter } from './sign-in-limiter';

/** What the register answers for a credential that is wrong, used, expired or malformed. */
const BAD_CREDENTIAL = new Set<DomainErrorCode>(['unauthenticated', 'invalid_input', 'not_found']);

/**
 * Signing members in and out of the console. Every credential (link token, password,
 * invitation token) is checked by the register, which owns members; failures count against
 * the client address like bad API keys do, and passwords also per account.
 */
@ApiTags('Session')
@Controller('console/api')
export class SignInController {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly register: RegisterAdminClient,
    private readonly admission: AdmissionService,
    private readonly limiter: SignInLimiter,
  ) {}

  @Get('session')
  @ConsoleOpen()
  @ApiOperation({ operationId: 'getSession', summary: 'The session, signed in or not' })
  @ApiOkResponse({ type: ConsoleSession, description: 'OK.' })
  @ApiErrors(503, 504)
  session(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSession> {
    return this.sessions.current(request, reply);
  }

  @Post('sign-in/link')
  @ConsoleOpen()
  @HttpCode(202)
  @ApiOperation({
    operationId: 'requestSignInLink',
    summary: 'E-mail a one-time sign-in link',
    description:
      `The same answer whether or not the address is a member. The link works once, for ` +
      `${SIGN_IN_LINK_TTL_MINUTES} minutes.`,
  })
  @ApiAcceptedResponse({ type: ConsoleMessage, description: 'Accepted.' })
  @ApiErrors(400, 403, 429, 503, 504)
  async link(
    @Body() body: SignInLinkBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleMessage> {
    await this.refuseBlockedAddress(request, reply);
    await this.limiter.countLinkRequest(body.email, request.ip, reply);
    await this.register.call(RegisterAdminRpc.signInLink, { email: body.email });
    return {
      message: `If ${body.email} is a member, a sign-in link is on its way; it works for ${SIGN_IN_LINK_TTL_MINUTES} minutes.`,
    };
  }

  @Post('sign-in/token')
  @ConsoleOpen()
  @HttpCode(200)
  @ApiOperation({ operationId: 'redeemSignInLink', summary: 'Sign in with an e-mailed link' })
  @ApiOkResponse({ type: ConsoleSession, description: 'Signed in.' })
  @ApiErrors(400, 401, 403, 429, 503, 504)
  async token(
    @Body() body: SignInTokenBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSession> {
    await this.refuseBlockedAddress(request, reply);
    const identity = await this.checked(request, () =>
      this.register.call(RegisterAdminRpc.signInRedeem, { token: body.token }),
    );
    return this.sessions.open(request, reply, identity);
  }

  @Post('sign-in/password')
  @ConsoleOpen()
  @HttpCode(200)
  @ApiOperation({ operationId: 'signInWithPassword', summary: 'Sign in with e-mail and password' })
  @ApiOkResponse({ type: ConsoleSession, description: 'Signed in.' })
  @ApiErrors(400, 401, 403, 429, 503, 504)
  async password(
    @Body() body: PasswordSignInBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSession> {
    await this.refuseBlockedAddress(request, reply);
    // Reserved before the check: a wrong password stays counted, a right one clears it.
    await this.limiter.reservePasswordAttempt(body.email, reply);
    const identity = await this.checked(request, () =>
      this.register.call(RegisterAdminRpc.signInPassword, {
        email: body.email,
        password: body.password,
      }),
    );
    await this.limiter.clearFailedPasswords(body.email);
    return this.sessions.open(request, reply, identity);
  }

  @Post('invitations/accept')
  @ConsoleOpen()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'acceptInvitationInConsole',
    summary: 'Accept an invitation and sign in',
    description:
      'The token of the invitation e-mail; the new member is signed in to its workspace, and ' +
      "only to it: switching to the e-mail's other workspaces, or setting its password, " +
      'needs a sign-in by link or password (403 until then).',
  })
  @ApiOkResponse({ type: ConsoleSession, description: 'Accepted and signed in.' })
  @ApiErrors(400, 401, 403, 404, 409, 429, 503, 504)
  async accept(
    @Body() body: SignInTokenBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSession> {
    await this.refuseBlockedAddress(request, reply);
    const member = await this.checked(request, () =>
      this.register.call(RegisterAdminRpc.invitationAccept, { token: body.token, via: 'console' }),
    );
    const identity = await this.register.call(RegisterAdminRpc.memberships, {
      email: member.email,
    });
    const joined = identity.memberships.find((m) => m.member_id === member.id);
    if (!joined) {
      throw new DomainError(
        'unauthenticated',
        'The invitation was accepted, but its membership is not active; sign in to continue',
      );
    }
    // The session works in the invitation's workspace only (SessionRecord.scope).
    return this.sessions.open(request, reply, identity, joined.workspace_id, joined.workspace_id);
  }

  @Post('session/workspace')
  @ConsoleOpen()
  @HttpCode(200)
  @ApiOperation({ operationId: 'pickWorkspace', summary: 'Work in one of your workspaces' })
  @ApiOkResponse({ type: ConsoleSession, description: 'OK.' })
  @ApiErrors(400, 401, 403, 404, 503, 504)
  pick(
    @Body() body: PickWorkspaceBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSession> {
    return this.sessions.pickWorkspace(request, reply, body.workspace_id);
  }

  @Post('sign-out')
  @ConsoleOpen()
  @HttpCode(204)
  @ApiOperation({ operationId: 'signOut', summary: 'End the session' })
  @ApiNoContentResponse({ description: 'Signed out.' })
  @ApiErrors(403, 503)
  async signOut(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.end(request, reply);
  }

  @Put('account/password')
  @ConsoleOpen()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'setPassword',
    summary: 'Set or change your password',
    description: 'One password per e-mail, for every workspace it is a member of (argon2id).',
  })
  @ApiNoContentResponse({ description: 'Password set.' })
  @ApiErrors(400, 401, 403, 429, 503, 504)
  async setPassword(
    @Body() body: SetPasswordBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const email = await this.sessions.email(request);
    // A current password is a password attempt like a sign-in's: reserved in the same limit,
    // so a stolen session cannot try passwords at the rate it can send them.
    if (body.current_password !== undefined) {
      await this.limiter.reservePasswordAttempt(email, reply);
    }
    await this.register.call(RegisterAdminRpc.passwordSet, {
      email,
      password: body.password,
      ...(body.current_password === undefined ? {} : { current_password: body.current_password }),
    });
    if (body.current_password !== undefined) await this.limiter.clearFailedPasswords(email);
    // A new password ends every other session (a thief's too); the register mails the member.
    await this.sessions.endOthers(request);
  }

  @Get('sessions')
  @ConsoleOpen()
  @ApiOperation({
    operationId: 'listSessions',
    summary: 'Your sessions, in every browser',
    description: 'The signed-in e-mail’s open console sessions, most recently used first.',
  })
  @ApiOkResponse({ type: [ConsoleSessionListItem], description: 'OK.' })
  @ApiErrors(401, 503, 504)
  listSessions(@Req() request: FastifyRequest): Promise<ConsoleSessionListItem[]> {
    return this.sessions.list(request);
  }

  @Delete('sessions/:id')
  @ConsoleOpen()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'endSession',
    summary: 'Sign one of your sessions out',
    description: 'Its next request is refused (401). This session too, if it is its id.',
  })
  @ApiNoContentResponse({ description: 'Signed out.' })
  @ApiErrors(400, 401, 403, 404, 503, 504)
  async endSession(
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.endOne(request, reply, id);
  }

  @Post('sessions/sign-out-others')
  @ConsoleOpen()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'endOtherSessions',
    summary: 'Sign out everywhere else',
    description: 'Every session of the e-mail but this one.',
  })
  @ApiOkResponse({ type: SessionsEnded, description: 'OK.' })
  @ApiErrors(401, 403, 503, 504)
  async endOthers(@Req() request: FastifyRequest): Promise<SessionsEnded> {
    return { signed_out: await this.sessions.endOthers(request) };
  }

  /** A client address over its failed-credential limit gets 429 before anything is checked. */
  private async refuseBlockedAddress(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const blocked = await this.admission.checkAddress(request.ip);
    if (blocked?.refusal) {
      void reply.headers(blocked.headers);
      throw blocked.refusal;
    }
  }

  /** Runs a credential check; a refused credential counts against the client address. */
  private async checked<T>(request: FastifyRequest, check: () => Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (error) {
      if (error instanceof DomainError && BAD_CREDENTIAL.has(error.code)) {
        await this.admission.countFailedToken(request.ip);
      }
      throw error;
    }
  }
}
