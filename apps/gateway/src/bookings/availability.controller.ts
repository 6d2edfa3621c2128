import { AssetAvailability, AvailabilityQuery, RegisterRpc } from '@custodian/contracts';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors, ApiIdParam } from '../http/api-docs.decorators';
import { RegisterClient } from '../register-client/register-client';

/** An asset's busy stretches: bookings that hold it and its check-out (the register's). */
@ApiTags('Bookings')
@Controller('assets')
export class AvailabilityController {
  constructor(private readonly register: RegisterClient) {}

  @Get(':id/availability')
  @RequiresScope('read')
  @ApiIdParam('id', 'asset')
  @ApiOperation({
    operationId: 'getAssetAvailability',
    summary: 'When an asset is taken',
    description:
      'Within [from, to) (now and 30 days on by default, 366 days at most): the bookings that ' +
      'hold the asset (requested, confirmed, checked out, overdue) and a check-out by hand, ' +
      'each clipped to the range, by start. A booking over a busy stretch would be refused.',
  })
  @ApiOkResponse({ type: AssetAvailability, description: 'OK.' })
  @ApiErrors(400, 404)
  availability(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @Query() query: AvailabilityQuery,
  ): Promise<AssetAvailability> {
    return this.register.call(RegisterRpc.assetAvailability, access, { id, query });
  }
}
