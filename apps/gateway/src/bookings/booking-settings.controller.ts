import { BookingSettings, RegisterRpc, UpdateBookingSettingsInput } from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors } from '../http/api-docs.decorators';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { RegisterClient } from '../register-client/register-client';

/** The workspace's booking settings: approval, and the no-show grace. */
@ApiTags('Bookings')
@Controller('settings/bookings')
export class BookingSettingsController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({ operationId: 'getBookingSettings', summary: 'The booking settings' })
  @ApiOkResponse({ type: BookingSettings, description: 'OK: the defaults until changed.' })
  get(@Access() access: AccessRecord): Promise<BookingSettings> {
    return this.register.call(RegisterRpc.bookingSettingsGet, access, {});
  }

  @Patch()
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'updateBookingSettings',
    summary: 'Change the booking settings',
    description:
      'Partial: the fields sent change, at least one. `approval_required` applies to bookings ' +
      'made from then on (those already requested still wait for a manager); ' +
      '`no_show_grace_minutes` (0 to 10080) to bookings made or moved from then on.',
  })
  @ApiOkResponse({ type: BookingSettings, description: 'OK: the settings now.' })
  @ApiErrors(400, 422)
  update(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateBookingSettingsInput,
  ): Promise<BookingSettings> {
    return this.register.call(RegisterRpc.bookingSettingsUpdate, access, { body }, identity);
  }
}
