import { NoticeSettings, RegisterRpc, UpdateNoticeSettingsInput } from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors } from '../http/api-docs.decorators';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { RegisterClient } from '../register-client/register-client';

/** The workspace's notice settings: when dates coming up (expiries) are told. */
@ApiTags('Settings')
@Controller('settings/notices')
export class NoticeSettingsController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({ operationId: 'getNoticeSettings', summary: 'The notice settings' })
  @ApiOkResponse({ type: NoticeSettings, description: 'OK: the defaults until changed.' })
  get(@Access() access: AccessRecord): Promise<NoticeSettings> {
    return this.register.call(RegisterRpc.noticeSettingsGet, access, {});
  }

  @Patch()
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'updateNoticeSettings',
    summary: 'Change the notice settings',
    description:
      '`expiry_days`: up to 5 thresholds, 1 to 365 days each, each once (an empty list ' +
      'leaves only `license.expired`). Applies to dates set from then on; notices already ' +
      'armed keep their day.',
  })
  @ApiOkResponse({ type: NoticeSettings, description: 'OK: the settings now.' })
  @ApiErrors(400, 422)
  update(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateNoticeSettingsInput,
  ): Promise<NoticeSettings> {
    return this.register.call(RegisterRpc.noticeSettingsUpdate, access, { body }, identity);
  }
}
