import {
  DomainError,
  RegisterAdminRpc,
  RegisterRpc,
  type CalendarFeedOwner,
  type CallerContext,
} from '@custodian/contracts';
import { Controller, Get, Header, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../access/public.decorator';
import { AdmissionService } from '../limits/admission.service';
import { RegisterAdminClient } from '../register-client/register-admin-client';
import { RegisterClient } from '../register-client/register-client';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { CalendarFeedLimiter } from './calendar-feed-limiter';
import { renderCalendarFeed } from './calendar-ics';

/** `<token>.ics`, the token as the register makes them (32 random bytes, base64url). */
const FEED_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;

/** The key id the register's logs name a feed's read by: the member whose URL it is. */
export const CALENDAR_KEY_PREFIX = 'calendar:';

/**
 * A member's calendar feed, `GET /calendar/<token>.ics`: what a calendar app subscribes to.
 * Outside /api/v1 and /console/api (no key, no cookie: an app that subscribes to a URL sends
 * nothing else); the token is the credential. Every way a token fails (malformed, unknown,
 * replaced, revoked, its member removed) is the same bare 404, counted as a failed credential
 * of the client's address like a bad API key or invitation token (429 past the limit); a good
 * URL is also limited per minute (CalendarFeedLimiter). Not in docs/openapi.json, which
 * describes /api/v1: docs/decisions.md ("Bookings") and the README describe it.
 */
@ApiExcludeController()
@Controller('calendar')
export class CalendarFeedController {
  constructor(
    private readonly admission: AdmissionService,
    private readonly limiter: CalendarFeedLimiter,
    private readonly registerAdmin: RegisterAdminClient,
    private readonly register: RegisterClient,
    private readonly workspaces: WorkspacesService,
  ) {}

  @Get(':file')
  @Public()
  // The answer is one member's view of a workspace: no shared cache may keep it.
  @Header('cache-control', 'private, no-store')
  @Header('x-robots-tag', 'noindex')
  async feed(
    @Param('file') file: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const blocked = await this.admission.checkAddress(request.ip);
    if (blocked?.refusal) {
      void reply.headers(blocked.headers);
      throw blocked.refusal;
    }
    const token = FEED_FILE.exec(file)?.[1];
    if (!token) return this.notFound(request);
    await this.limiter.count(token, reply);
    const owner = await this.open(token);
    if (!owner) return this.notFound(request);
    // A workspace deleted since is not found either: the feed shows nothing of it.
    const workspace = await this.workspaces.get(owner.workspace_id).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'not_found') return null;
      throw error;
    });
    if (!workspace) return this.notFound(request);
    const caller: CallerContext = {
      workspaceId: workspace.id,
      keyId: `${CALENDAR_KEY_PREFIX}${owner.member_id}`,
      // A read: the register's feed message changes nothing whatever the scope.
      scope: 'read',
      plan: workspace.plan,
      limits: workspace.limits,
    };
    const events = await this.register.callAs(RegisterRpc.calendarFeedEvents, caller, {});
    void reply.type('text/calendar; charset=utf-8');
    return renderCalendarFeed(events, workspace.name, new Date());
  }

  private async open(token: string): Promise<CalendarFeedOwner | null> {
    try {
      return await this.registerAdmin.call(RegisterAdminRpc.calendarFeedOpen, { token });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') return null;
      // Opening a feed only marks it used: asking again is harmless, so a 503, never a 504.
      if (error instanceof DomainError && error.code === 'timeout') {
        throw new DomainError(
          'overloaded',
          'The register did not answer in time; try again shortly',
        );
      }
      throw error;
    }
  }

  /** The one answer to a token that opens nothing, counted against the client's address. */
  private async notFound(request: FastifyRequest): Promise<never> {
    await this.admission.countFailedToken(request.ip);
    throw new DomainError('not_found', 'Not found');
  }
}
