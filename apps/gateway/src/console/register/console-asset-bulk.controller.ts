import { BulkAssetInput, BulkAssetReply, RegisterRpc } from '@custodian/contracts';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BULK_DESCRIPTION } from '../../assets/asset-bulk.controller';
import { ApiErrors } from '../../http/api-docs.decorators';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';
import { ConsoleRegister } from './console-register';

/** The asset list's bulk actions: the API's message, for a member who may manage assets. */
@ApiTags('Assets')
@Controller('console/api/assets')
export class ConsoleAssetBulkController {
  constructor(private readonly register: ConsoleRegister) {}

  @Post('bulk')
  @ConsoleAccess('assets.manage')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'bulkChangeAssets',
    summary: 'Change many assets at once',
    description: `As \`POST /api/v1/assets/bulk\`. ${BULK_DESCRIPTION}`,
  })
  @ApiOkResponse({ type: BulkAssetReply, description: 'A result per id, and their counts.' })
  @ApiErrors(400)
  bulk(@Caller() caller: ConsoleCaller, @Body() body: BulkAssetInput): Promise<BulkAssetReply> {
    return this.register.call(RegisterRpc.assetsBulk, caller, { body });
  }
}
