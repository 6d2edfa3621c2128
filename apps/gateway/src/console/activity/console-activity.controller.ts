import {
  ACTIVITY_PAGE_MAX,
  ACTIVITY_RECORD_TYPES,
  ACTIVITY_SOURCES,
  ActivityPage,
  type RawQuery,
} from '@custodian/contracts';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/api-docs.decorators';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';
import { ActivityFeed } from './activity-feed';
import { ACTIVITY_PAGE_DEFAULT, activityFilterOf } from './activity-query';

@ApiTags('Activity')
@Controller('console/api/activity')
export class ConsoleActivityController {
  constructor(private readonly feed: ActivityFeed) {}

  @Get()
  @ConsoleAccess('workspace.view')
  @ApiOperation({
    operationId: 'listActivity',
    summary: 'Changes to the workspace, newest first',
    description:
      'Who changed what and when: assets, people and members for every role; API keys and ' +
      'webhook endpoints for the roles that may see them. `record_id` also finds the entries ' +
      "that concern a record without being about it (a person's check-outs).",
  })
  @ApiQuery({
    name: 'record_type',
    required: false,
    schema: { type: 'string', enum: [...ACTIVITY_RECORD_TYPES] },
  })
  @ApiQuery({ name: 'record_id', required: false, schema: { type: 'string', maxLength: 64 } })
  @ApiQuery({
    name: 'source',
    required: false,
    schema: { type: 'string', enum: [...ACTIVITY_SOURCES] },
  })
  @ApiQuery({ name: 'actor_id', required: false, schema: { type: 'string', maxLength: 64 } })
  @ApiQuery({ name: 'action', required: false, schema: { type: 'string', maxLength: 40 } })
  @ApiQuery({ name: 'before', required: false, schema: { type: 'string', pattern: '^act_' } })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: {
      type: 'integer',
      minimum: 1,
      maximum: ACTIVITY_PAGE_MAX,
      default: ACTIVITY_PAGE_DEFAULT,
    },
  })
  @ApiOkResponse({ type: ActivityPage, description: 'OK.' })
  @ApiErrors(400, 403)
  list(@Query() query: RawQuery, @Caller() caller: ConsoleCaller): Promise<ActivityPage> {
    return this.feed.page(caller, activityFilterOf(query));
  }
}
