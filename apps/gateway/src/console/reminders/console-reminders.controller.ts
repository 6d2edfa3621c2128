import {
  CreateReminderInput,
  RegisterRpc,
  Reminder,
  ReminderListQuery,
  ReminderPage,
  UpdateReminderInput,
  type Page,
} from '@custodian/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiIdParam } from '../../http/api-docs.decorators';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../../http/entity-tags';
import { ConsoleRegister } from '../register/console-register';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';

/**
 * Reminders for signed-in members: the API's messages with the member as the caller. Every
 * role sees them (`reminders.view`); owners, admins and managers create, change and cancel
 * them (`reminders.manage`).
 */
@ApiTags('Reminders')
@Controller('console/api/reminders')
export class ConsoleRemindersController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get()
  @ConsoleAccess('reminders.view')
  @ApiOperation({
    operationId: 'listReminders',
    summary: 'A page of reminders',
    description: 'Soonest first; filters as `GET /api/v1/reminders`.',
  })
  @ApiOkResponse({ type: ReminderPage, description: 'OK.' })
  @ApiErrors(400)
  list(
    @Caller() caller: ConsoleCaller,
    @Query() query: ReminderListQuery,
  ): Promise<Page<Reminder>> {
    return this.register.call(RegisterRpc.remindersList, caller, {
      query: { ...query, page: query.page ?? '1' },
    });
  }

  @Post()
  @ConsoleAccess('reminders.manage')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createReminder',
    summary: 'Add a reminder',
    description: 'As `POST /api/v1/reminders`.',
  })
  @ApiCreatedResponse({ type: Reminder, description: 'Created.' })
  @ApiErrors(400)
  create(@Caller() caller: ConsoleCaller, @Body() body: CreateReminderInput): Promise<Reminder> {
    return this.register.call(RegisterRpc.remindersCreate, caller, { body });
  }

  @Get(':id')
  @ConsoleAccess('reminders.view')
  @ApiIdParam('id', 'reminder')
  @ApiOperation({ operationId: 'getReminder', summary: 'One reminder' })
  @ApiOkResponse({ type: Reminder, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Reminder> {
    return this.register.call(RegisterRpc.remindersGet, caller, { id });
  }

  @Patch(':id')
  @ConsoleAccess('reminders.manage')
  @ApiIdParam('id', 'reminder')
  @ApiOperation({
    operationId: 'updateReminder',
    summary: 'Change a reminder',
    description: 'As `PATCH /api/v1/reminders/{id}`.',
  })
  @ApiOkResponse({ type: Reminder, description: 'The reminder after the change.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 404, 409, 412)
  update(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: UpdateReminderInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Reminder> {
    return this.register.call(RegisterRpc.remindersUpdate, caller, {
      id,
      body,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }

  @Delete(':id')
  @ConsoleAccess('reminders.manage')
  @ApiIdParam('id', 'reminder')
  @ApiOperation({
    operationId: 'cancelReminder',
    summary: 'Cancel a reminder',
    description: 'As `DELETE /api/v1/reminders/{id}`: nothing more fires.',
  })
  @ApiOkResponse({ type: Reminder, description: 'Cancelled.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 412)
  cancel(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Reminder> {
    return this.register.call(RegisterRpc.remindersCancel, caller, {
      id,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }
}
