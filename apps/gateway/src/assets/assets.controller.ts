import {
  ASSET_SORT_VALUES,
  ASSET_STATUSES,
  Asset,
  AssetPage,
  AssetSummary,
  RegisterRpc,
  CreateAssetInput,
  PERSON_HOLDINGS_MAX,
  UpdateAssetInput,
  type AssetDetail,
  type ListReply,
  type RawQuery,
} from '@custodian/contracts';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { RegisterClient } from '../register-client/register-client';
import { UnpagedLists } from '../register-client/unpaged-lists';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { SendsRawJson } from '../http/raw-json';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../http/entity-tags';
import type { RequestIdentity } from '@custodian/messaging';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiErrors,
  ApiIdParam,
  ApiListQuery,
  ApiPlaceFilters,
  ApiUpdatedSince,
  ApiPageOrListResponse,
} from '../http/api-docs.decorators';

/** HTTP face of the register's assets; validation and rules live in the register. */
@ApiTags('Assets')
@Controller('assets')
export class AssetsController {
  constructor(
    private readonly register: RegisterClient,
    private readonly lists: UnpagedLists,
  ) {}

  @Get()
  @RequiresScope('read')
  @ApiListQuery(ASSET_STATUSES, 'name, asset tag, SKU, serial number, brand and model')
  @ApiQuery({
    name: 'assigned_to_id',
    required: false,
    description:
      'Only the assets checked out to this person (beyond the spec): the full list of what a ' +
      "person's `holdings` show at most " +
      `${PERSON_HOLDINGS_MAX} of. An id of no person of the workspace matches nothing.`,
    schema: { type: 'string', minLength: 1, maxLength: 64 },
  })
  @ApiQuery({
    name: 'warranty_expires_before',
    required: false,
    description:
      'Only the assets whose warranty ends before this day (`warranty_expires_on` earlier ' +
      'than it, `YYYY-MM-DD`); assets without a warranty date never match.',
    schema: { type: 'string', format: 'date' },
  })
  @ApiPlaceFilters({ category: true })
  @ApiUpdatedSince()
  @ApiQuery({
    name: 'sort',
    required: false,
    description:
      'The order (beyond the spec): `name` or `updated_at`, `-` before it for descending ' +
      '(`-created_at` is newest first); ties by `id` in the same direction.',
    schema: { type: 'string', enum: ASSET_SORT_VALUES },
  })
  @ApiOperation({
    operationId: 'listAssets',
    summary: 'List assets',
    description: 'Ordered by `created_at`, then `id` (or as `sort` says); stable across pages.',
  })
  @ApiPageOrListResponse(AssetPage, AssetSummary)
  @ApiErrors(400)
  @SendsRawJson()
  list(@Access() access: AccessRecord, @Query() query: RawQuery): Promise<ListReply<AssetSummary>> {
    return this.lists.list(RegisterRpc.assetsList, access, query);
  }

  @Post()
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'createAsset',
    summary: 'Create an asset',
    description:
      "Counts against the plan's asset limit (403 when it is reached). `assigned_to_id` " +
      'checks the new asset out to an active person. Fires `asset.created`.',
  })
  @ApiCreatedResponse({ type: Asset, description: 'Created: the new resource.' })
  @ApiErrors(409, 422)
  create(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CreateAssetInput,
  ): Promise<AssetDetail> {
    return this.register.call(RegisterRpc.assetsCreate, access, { body }, identity);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiIdParam('id', 'asset')
  @ApiOperation({
    operationId: 'getAsset',
    summary: 'Fetch one asset',
    description: 'With category, location, custody and custom fields.',
  })
  @ApiOkResponse({ type: Asset, description: 'The asset.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<AssetDetail> {
    return this.register.call(RegisterRpc.assetsGet, access, { id });
  }

  @Patch(':id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'asset')
  @ApiOperation({
    operationId: 'updateAsset',
    summary: 'Update an asset',
    description:
      'Partial: omitted fields keep their value, `null` clears a field (not `name`, ' +
      '`status` or `asset_tag`). A new `assigned_to_id` checks the asset out, `null` checks ' +
      'it in. Fires `asset.updated` (and `assignment.checked_out` / `checked_in`).',
  })
  @ApiOkResponse({ type: Asset, description: 'The asset after the change.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 409, 412, 422)
  update(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateAssetInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<AssetDetail> {
    return this.register.call(
      RegisterRpc.assetsUpdate,
      access,
      { id, body, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }
}
