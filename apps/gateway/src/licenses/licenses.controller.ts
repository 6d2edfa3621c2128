import {
  AssignSeatInput,
  CreateLicenseInput,
  License,
  LicenseKey,
  LicenseListQuery,
  LicensePage,
  LicenseSeat,
  RegisterRpc,
  UpdateLicenseInput,
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

/** HTTP face of the register's licences and seats; the rules live there. */
@ApiTags('Licences')
@Controller('licenses')
export class LicensesController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'listLicenses',
    summary: 'List licences',
    description:
      'Paged, by name then id; licences in the bin are left out. `search` looks in the name ' +
      'and the vendor; `expires_before` keeps those ending on or before that day.',
  })
  @ApiOkResponse({ type: LicensePage, description: 'OK.' })
  @ApiErrors(400)
  list(@Access() access: AccessRecord, @Query() query: LicenseListQuery): Promise<Page<License>> {
    return this.register.call(RegisterRpc.licensesList, access, { query });
  }

  @Post()
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'createLicense',
    summary: 'Create a licence',
    description:
      '`seats` left out or null is unlimited. The product key is stored encrypted and never ' +
      'answered (see `has_product_key`; read it with POST /licenses/{id}/key). Fires ' +
      '`license.created`.',
  })
  @ApiCreatedResponse({ type: License, description: 'Created.' })
  @ApiErrors(400, 422)
  create(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CreateLicenseInput,
  ): Promise<License> {
    return this.register.call(RegisterRpc.licensesCreate, access, { body }, identity);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiIdParam('id', 'licence')
  @ApiOperation({ operationId: 'getLicense', summary: 'Fetch one licence' })
  @ApiOkResponse({ type: License, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<License> {
    return this.register.call(RegisterRpc.licensesGet, access, { id });
  }

  @Patch(':id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'licence')
  @ApiOperation({
    operationId: 'updateLicense',
    summary: 'Change a licence',
    description:
      'Partial; `null` clears a field (not `name`). `seats` below the seats in use is a 409 ' +
      'saying how many to release. Fires `license.updated` when something changed.',
  })
  @ApiOkResponse({ type: License, description: 'OK.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 404, 409, 412, 422)
  update(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateLicenseInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<License> {
    return this.register.call(
      RegisterRpc.licensesUpdate,
      access,
      { id, body, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }

  @Delete(':id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'licence')
  @ApiOperation({
    operationId: 'deleteLicense',
    summary: 'Delete a licence (to the bin)',
    description:
      'Soft: it leaves lists and fetches (404) with its seats kept, until restored ' +
      '(POST /licenses/{id}/restore). Fires `license.deleted` with the licence as it was.',
  })
  @ApiOkResponse({ type: License, description: 'Deleted: the licence as it was.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 412, 422)
  delete(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<License> {
    return this.register.call(
      RegisterRpc.licensesDelete,
      access,
      { id, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }

  @Post(':id/restore')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'licence')
  @ApiOperation({
    operationId: 'restoreLicense',
    summary: 'Restore a deleted licence',
    description: 'Back from the bin with its seats. Fires `license.updated`.',
  })
  @ApiOkResponse({ type: License, description: 'Restored.' })
  @ApiErrors(404, 422)
  restore(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
  ): Promise<License> {
    return this.register.call(RegisterRpc.licensesRestore, access, { id }, identity);
  }

  @Post(':id/key')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'licence')
  @ApiOperation({
    operationId: 'revealLicenseKey',
    summary: 'Read a licence’s product key',
    description:
      'Decrypted for this answer only (`product_key` null when none is stored). Write scope: ' +
      'a key acts as admin; in the console admins and the owner. Recorded in the activity ' +
      'feed. A value under a key no longer in the register’s LICENSE_KEY_SECRETS is a 409 ' +
      'naming the key id.',
  })
  @ApiOkResponse({ type: LicenseKey, description: 'OK.' })
  @ApiErrors(404, 409, 422)
  revealKey(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
  ): Promise<LicenseKey> {
    return this.register.call(RegisterRpc.licensesRevealKey, access, { id }, identity);
  }

  @Get(':id/seats')
  @RequiresScope('read')
  @ApiIdParam('id', 'licence')
  @ApiOperation({ operationId: 'listLicenseSeats', summary: 'The seats of a licence' })
  @ApiOkResponse({ type: LicenseSeat, isArray: true, description: 'Oldest first.' })
  @ApiErrors(404)
  seats(@Access() access: AccessRecord, @Param('id') id: string): Promise<LicenseSeat[]> {
    return this.register.call(RegisterRpc.licenseSeatsList, access, { id });
  }

  @Post(':id/seats')
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiIdParam('id', 'licence')
  @ApiOperation({
    operationId: 'assignLicenseSeat',
    summary: 'Assign a seat',
    description:
      'To a person (active) or an asset: exactly one of `person_id` and `asset_id`. A full ' +
      'licence is a 409 naming it and its seat count, exact under concurrency; a holder that ' +
      'already has a seat is a 409. Fires `license.seat_assigned`.',
  })
  @ApiCreatedResponse({ type: LicenseSeat, description: 'Assigned.' })
  @ApiErrors(400, 404, 409, 422)
  assign(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: AssignSeatInput,
  ): Promise<LicenseSeat> {
    return this.register.call(RegisterRpc.licenseSeatsAssign, access, { id, body }, identity);
  }

  @Delete(':id/seats/:seatId')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'licence')
  @ApiIdParam('seatId', 'seat')
  @ApiOperation({
    operationId: 'releaseLicenseSeat',
    summary: 'Release a seat',
    description: 'Fires `license.seat_released`; the seat as it was.',
  })
  @ApiOkResponse({ type: LicenseSeat, description: 'Released.' })
  @ApiErrors(404, 422)
  release(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @Param('seatId') seatId: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
  ): Promise<LicenseSeat> {
    return this.register.call(RegisterRpc.licenseSeatsRelease, access, { id, seatId }, identity);
  }
}
