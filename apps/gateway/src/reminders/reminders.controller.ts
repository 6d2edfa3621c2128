import {
  CreateReminderInput,
  RegisterRpc,
  Reminder,
  ReminderListQuery,
  ReminderPage,
  UpdateReminderInput,
  type Page,
} from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors, ApiIdParam } from '../http/api-docs.decorators';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../http/entity-tags';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { RegisterClient } from '../register-client/register-client';

/** HTTP face of the register's reminders; the rules live there. */
@ApiTags('Reminders')
@Controller('reminders')
export class RemindersController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'listReminders',
    summary: 'List reminders',
    description:
      'Paged, soonest `due_at` first, then id. Without `status`, every reminder but the ' +
      'cancelled ones; `asset_id`, `person_id` and `license_id` keep those about that record, ' +
      '`due_before` those due before an instant.',
  })
  @ApiOkResponse({ type: ReminderPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Access() access: AccessRecord, @Query() query: ReminderListQuery): Promise<Page<Reminder>> {
    return this.register.call(RegisterRpc.remindersList, access, { query });
  }

  @Post()
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'createReminder',
    summary: 'Create a reminder',
    description:
      'At `due_at` (in the future), once or repeating every N days, weeks or months; about at ' +
      'most one of an asset, a person and a licence of the workspace. Each occurrence fires ' +
      '`reminder.due` once, and a repeating reminder then moves to its next occurrence.',
  })
  @ApiCreatedResponse({ type: Reminder, description: 'Created.' })
  @ApiErrors(400, 422)
  create(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CreateReminderInput,
  ): Promise<Reminder> {
    return this.register.call(RegisterRpc.remindersCreate, access, { body }, identity);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiIdParam('id', 'reminder')
  @ApiOperation({ operationId: 'getReminder', summary: 'Fetch one reminder' })
  @ApiOkResponse({ type: Reminder, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<Reminder> {
    return this.register.call(RegisterRpc.remindersGet, access, { id });
  }

  @Patch(':id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'reminder')
  @ApiOperation({
    operationId: 'updateReminder',
    summary: 'Change a reminder',
    description:
      'Partial. A new `due_at` or `repeat` counts the occurrences again from the new (or ' +
      'current) `due_at`. A done or cancelled reminder is a 409.',
  })
  @ApiOkResponse({ type: Reminder, description: 'OK.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 404, 409, 412, 422)
  update(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateReminderInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Reminder> {
    return this.register.call(
      RegisterRpc.remindersUpdate,
      access,
      { id, body, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }

  @Delete(':id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'reminder')
  @ApiOperation({
    operationId: 'cancelReminder',
    summary: 'Cancel a reminder',
    description:
      'Nothing more fires. The reminder stays readable with status `cancelled` ' +
      '(`GET /reminders?status=cancelled`); cancelling it again answers the same.',
  })
  @ApiOkResponse({ type: Reminder, description: 'Cancelled.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 412, 422)
  cancel(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Reminder> {
    return this.register.call(
      RegisterRpc.remindersCancel,
      access,
      { id, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }
}
