import { LicenseSettings, RegisterRpc, UpdateLicenseSettingsInput } from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors } from '../http/api-docs.decorators';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { RegisterClient } from '../register-client/register-client';

/** The workspace's licence settings: what an offboarding does with the person's seats. */
@ApiTags('Settings')
@Controller('settings/licenses')
export class LicenseSettingsController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({ operationId: 'getLicenseSettings', summary: 'The licence settings' })
  @ApiOkResponse({ type: LicenseSettings, description: 'OK: the defaults until changed.' })
  get(@Access() access: AccessRecord): Promise<LicenseSettings> {
    return this.register.call(RegisterRpc.licenseSettingsGet, access, {});
  }

  @Patch()
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'updateLicenseSettings',
    summary: 'Change the licence settings',
    description:
      '`release_on_offboard`: offboarding a person (PATCH /people/{id} to `inactive`) releases ' +
      'their seats, one `license.seat_released` each, when the PATCH does not send ' +
      '`release_licenses` (which always wins).',
  })
  @ApiOkResponse({ type: LicenseSettings, description: 'OK: the settings now.' })
  @ApiErrors(400, 422)
  update(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateLicenseSettingsInput,
  ): Promise<LicenseSettings> {
    return this.register.call(RegisterRpc.licenseSettingsUpdate, access, { body }, identity);
  }
}
