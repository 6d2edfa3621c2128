import {
  BULK_ASSET_IDS_MAX,
  BULK_CHUNK_SIZE,
  BulkAssetInput,
  BulkAssetReply,
  RegisterRpc,
} from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors } from '../http/api-docs.decorators';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { RegisterClient } from '../register-client/register-client';

/** What both faces of the bulk route say of it (the console's mirrors the API's). */
export const BULK_DESCRIPTION =
  `One change to 1 to ${BULK_ASSET_IDS_MAX} assets (beyond the spec): \`update\` one field ` +
  '(`status`, `location_id` / `location` or `category_id` / `category`), `check_out` to ' +
  '`person_id` (with `due_at`), `check_in`, or `delete` (move to the bin). A body that is ' +
  'wrong as a whole is a 400 naming the field, and nothing is written. Otherwise every id ' +
  'gets a result, in the order sent: `updated` (with the events and feed entry the ' +
  'single-asset route writes: `asset.updated`, `assignment.checked_out` / `checked_in`, ' +
  '`asset.deleted`), `unchanged` (it already was so: nothing written, no event), ' +
  '`not_found`, or `refused` with the status and message the single-asset route would give ' +
  '(checked out to someone else, in the bin, booked...). Applied in id order, ' +
  `${BULK_CHUNK_SIZE} assets per transaction: a refusal undoes only its asset. Sending the ` +
  'same request again is safe (what was applied answers `unchanged`).';

/** POST /assets/bulk, the public face; the register (assets/asset-bulk.ts) does the work. */
@ApiTags('Assets')
@Controller('assets')
export class AssetBulkController {
  constructor(private readonly register: RegisterClient) {}

  @Post('bulk')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'bulkChangeAssets',
    summary: 'Change many assets at once',
    description: BULK_DESCRIPTION,
  })
  @ApiOkResponse({ type: BulkAssetReply, description: 'A result per id, and their counts.' })
  @ApiErrors(400, 422)
  bulk(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: BulkAssetInput,
  ): Promise<BulkAssetReply> {
    return this.register.call(RegisterRpc.assetsBulk, access, { body }, identity);
  }
}
