import {
  CalendarFeed,
  IssuedCalendarFeed,
  RegisterAdminRpc,
  type MemberRefInput,
} from '@custodian/contracts';
import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RegisterAdminClient } from '../../register-client/register-admin-client';
import { Caller, ConsoleAccess, WithoutIdempotencyKey } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';
import { RecentSignIn } from '../sign-in/recent-sign-in';

/**
 * The signed-in member's calendar feed in the session's workspace (the Account page's
 * "Calendar feed" card): a secret URL that calendar apps subscribe to, `GET
 * /calendar/<token>.ics`. Every member may have one: the feed shows the workspace's bookings,
 * which every role sees.
 */
@ApiTags('Account')
@Controller('console/api/calendar-feed')
export class ConsoleCalendarFeedController {
  constructor(private readonly register: RegisterAdminClient) {}

  @Get()
  @ConsoleAccess('workspace.view')
  @ApiOperation({
    operationId: 'getCalendarFeed',
    summary: 'Your calendar feed',
    description: 'Whether you have a feed URL in this workspace, when it was made and last used.',
  })
  @ApiOkResponse({ type: CalendarFeed, description: 'OK.' })
  get(@Caller() caller: ConsoleCaller): Promise<CalendarFeed> {
    return this.register.call(RegisterAdminRpc.calendarFeedGet, memberOf(caller));
  }

  @WithoutIdempotencyKey(
    'each call makes a new URL and ends the one before, seen or not: a retry leaves one URL, the one it answers',
  )
  @Post()
  @RecentSignIn()
  @ConsoleAccess('workspace.view')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'issueCalendarFeed',
    summary: 'Make your calendar feed URL, or a new one',
    description:
      'The URL is in this answer only: only a hash of its token is kept. A URL made before ' +
      'stops working at once.',
  })
  @ApiCreatedResponse({ type: IssuedCalendarFeed, description: 'Created.' })
  issue(@Caller() caller: ConsoleCaller): Promise<IssuedCalendarFeed> {
    return this.register.call(RegisterAdminRpc.calendarFeedIssue, memberOf(caller));
  }

  @WithoutIdempotencyKey('revoking twice is harmless')
  @Delete()
  @ConsoleAccess('workspace.view')
  @ApiOperation({
    operationId: 'revokeCalendarFeed',
    summary: 'Revoke your calendar feed URL',
    description: 'The URL stops working at once (404). Revoking when there is none is harmless.',
  })
  @ApiOkResponse({ type: CalendarFeed, description: 'Revoked.' })
  revoke(@Caller() caller: ConsoleCaller): Promise<CalendarFeed> {
    return this.register.call(RegisterAdminRpc.calendarFeedRevoke, memberOf(caller));
  }
}

/** The feed is the signed-in member's, in the session's workspace: nobody else's by id. */
function memberOf(caller: ConsoleCaller): MemberRefInput {
  return { workspace: caller.workspaceId, id: caller.memberId };
}
