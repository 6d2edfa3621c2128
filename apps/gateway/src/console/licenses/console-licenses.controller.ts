import {
  AssignSeatInput,
  CreateLicenseInput,
  License,
  LicenseKey,
  LicenseListQuery,
  LicensePage,
  LicenseSeat,
  LicenseSettings,
  RegisterRpc,
  UpdateLicenseInput,
  UpdateLicenseSettingsInput,
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
 * Licences and their seats for signed-in members: the API's messages with the member as the
 * caller. Every role sees them (`licenses.view`); owners, admins and managers buy, change,
 * delete and hand out seats (`licenses.manage`). Reading a product key is the register's
 * call: owners and admins only, each reveal in the feed.
 */
@ApiTags('Licences')
@Controller('console/api/licenses')
export class ConsoleLicensesController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get()
  @ConsoleAccess('licenses.view')
  @ApiOperation({
    operationId: 'listLicenses',
    summary: 'A page of licences',
    description: 'By name; `search` in the name and the vendor; `expires_before` a day.',
  })
  @ApiOkResponse({ type: LicensePage, description: 'OK.' })
  @ApiErrors(400)
  list(@Caller() caller: ConsoleCaller, @Query() query: LicenseListQuery): Promise<Page<License>> {
    return this.register.call(RegisterRpc.licensesList, caller, {
      query: { ...query, page: query.page ?? '1' },
    });
  }

  @Post()
  @ConsoleAccess('licenses.manage')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createLicense',
    summary: 'Add a licence',
    description: 'As `POST /api/v1/licenses`. Fires `license.created`.',
  })
  @ApiCreatedResponse({ type: License, description: 'Created.' })
  @ApiErrors(400)
  create(@Caller() caller: ConsoleCaller, @Body() body: CreateLicenseInput): Promise<License> {
    return this.register.call(RegisterRpc.licensesCreate, caller, { body });
  }

  @Get(':id')
  @ConsoleAccess('licenses.view')
  @ApiIdParam('id', 'licence')
  @ApiOperation({ operationId: 'getLicense', summary: 'One licence' })
  @ApiOkResponse({ type: License, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<License> {
    return this.register.call(RegisterRpc.licensesGet, caller, { id });
  }

  @Patch(':id')
  @ConsoleAccess('licenses.manage')
  @ApiIdParam('id', 'licence')
  @ApiOperation({
    operationId: 'updateLicense',
    summary: 'Change a licence',
    description: 'As `PATCH /api/v1/licenses/{id}`; a new `expires_on` re-arms its notices.',
  })
  @ApiOkResponse({ type: License, description: 'The licence after the change.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 404, 409, 412)
  update(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: UpdateLicenseInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<License> {
    return this.register.call(RegisterRpc.licensesUpdate, caller, {
      id,
      body,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }

  @Delete(':id')
  @ConsoleAccess('licenses.manage')
  @ApiIdParam('id', 'licence')
  @ApiOperation({
    operationId: 'deleteLicense',
    summary: 'Delete a licence (to the bin)',
    description: 'As `DELETE /api/v1/licenses/{id}`. Fires `license.deleted`.',
  })
  @ApiOkResponse({ type: License, description: 'The licence as it was.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 412)
  delete(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<License> {
    return this.register.call(RegisterRpc.licensesDelete, caller, {
      id,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }

  @Post(':id/key')
  @ConsoleAccess('licenses.manage')
  @HttpCode(200)
  @ApiIdParam('id', 'licence')
  @ApiOperation({
    operationId: 'revealLicenseKey',
    summary: 'Read the product key',
    description: 'Owners and admins (a manager is refused, 403); each reveal is in the feed.',
  })
  @ApiOkResponse({ type: LicenseKey, description: 'OK.' })
  @ApiErrors(403, 404)
  revealKey(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<LicenseKey> {
    return this.register.call(RegisterRpc.licensesRevealKey, caller, { id });
  }

  @Get(':id/seats')
  @ConsoleAccess('licenses.view')
  @ApiIdParam('id', 'licence')
  @ApiOperation({ operationId: 'listLicenseSeats', summary: 'The seats of a licence' })
  @ApiOkResponse({ type: [LicenseSeat], description: 'OK: oldest first.' })
  @ApiErrors(404)
  seats(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<LicenseSeat[]> {
    return this.register.call(RegisterRpc.licenseSeatsList, caller, { id });
  }

  @Post(':id/seats')
  @ConsoleAccess('licenses.manage')
  @HttpCode(201)
  @ApiIdParam('id', 'licence')
  @ApiOperation({
    operationId: 'assignLicenseSeat',
    summary: 'Assign a seat',
    description:
      'To a person or an asset. A full licence is a 409 naming it and its seat count. Fires ' +
      '`license.seat_assigned`.',
  })
  @ApiCreatedResponse({ type: LicenseSeat, description: 'Created.' })
  @ApiErrors(400, 404, 409)
  assign(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: AssignSeatInput,
  ): Promise<LicenseSeat> {
    return this.register.call(RegisterRpc.licenseSeatsAssign, caller, { id, body });
  }

  @Delete(':id/seats/:seatId')
  @ConsoleAccess('licenses.manage')
  @ApiIdParam('id', 'licence')
  @ApiOperation({
    operationId: 'releaseLicenseSeat',
    summary: 'Release a seat',
    description: 'Fires `license.seat_released`.',
  })
  @ApiOkResponse({ type: LicenseSeat, description: 'The seat released.' })
  @ApiErrors(404)
  release(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Param('seatId') seatId: string,
  ): Promise<LicenseSeat> {
    return this.register.call(RegisterRpc.licenseSeatsRelease, caller, { id, seatId });
  }
}

/** The licence settings for signed-in members: every role reads them, managers change them. */
@ApiTags('Licences')
@Controller('console/api/settings/licenses')
export class ConsoleLicenseSettingsController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get()
  @ConsoleAccess('licenses.view')
  @ApiOperation({ operationId: 'getLicenseSettings', summary: 'The licence settings' })
  @ApiOkResponse({ type: LicenseSettings, description: 'OK: the defaults until changed.' })
  get(@Caller() caller: ConsoleCaller): Promise<LicenseSettings> {
    return this.register.call(RegisterRpc.licenseSettingsGet, caller, {});
  }

  @Patch()
  @ConsoleAccess('licenses.manage')
  @ApiOperation({
    operationId: 'updateLicenseSettings',
    summary: 'Change the licence settings',
    description: 'As `PATCH /api/v1/settings/licenses`.',
  })
  @ApiOkResponse({ type: LicenseSettings, description: 'OK: the settings now.' })
  @ApiErrors(400)
  update(
    @Caller() caller: ConsoleCaller,
    @Body() body: UpdateLicenseSettingsInput,
  ): Promise<LicenseSettings> {
    return this.register.call(RegisterRpc.licenseSettingsUpdate, caller, { body });
  }
}
