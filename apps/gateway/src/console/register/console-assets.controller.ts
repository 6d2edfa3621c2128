import {
  ASSET_PAGE_SIZE_MAX,
  ASSET_SORT_VALUES,
  ASSET_STATUSES,
  Asset,
  AssetPage,
  CreateAssetInput,
  DELETED_ASSETS_SHOWN,
  DeletedAsset,
  RegisterRpc,
  ScanBody,
  ScannedAsset,
  UpdateAssetInput,
  type AssetDetail,
  type AssetSummary,
  type Page,
  type RawQuery,
} from '@custodian/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, ApiIdParam, ApiPlaceFilters } from '../../http/api-docs.decorators';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../../http/entity-tags';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';
import { ConsoleRegister } from './console-register';

/**
 * The register's assets for signed-in members: the API's messages (same validation, limits
 * and events), plus what only the console does: the bin (soft delete, restore) and scans.
 */
@ApiTags('Assets')
@Controller('console/api/assets')
export class ConsoleAssetsController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get()
  @ConsoleAccess('assets.view')
  @ApiOperation({
    operationId: 'listAssets',
    summary: 'A page of assets',
    description: 'Oldest first, as the API lists them; `total` counts every match.',
  })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1 } })
  @ApiQuery({
    name: 'pageSize',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: ASSET_PAGE_SIZE_MAX },
  })
  @ApiQuery({
    name: 'status',
    required: false,
    schema: { type: 'string', enum: [...ASSET_STATUSES] },
  })
  @ApiQuery({ name: 'search', required: false, schema: { type: 'string', maxLength: 200 } })
  @ApiQuery({ name: 'assigned_to_id', required: false, schema: { type: 'string' } })
  @ApiQuery({
    name: 'warranty_expires_before',
    required: false,
    schema: { type: 'string', format: 'date' },
  })
  @ApiPlaceFilters({ category: true })
  @ApiQuery({ name: 'sort', required: false, schema: { type: 'string', enum: ASSET_SORT_VALUES } })
  @ApiOkResponse({ type: AssetPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Caller() caller: ConsoleCaller, @Query() query: RawQuery): Promise<Page<AssetSummary>> {
    return this.register.page(RegisterRpc.assetsList, caller, query);
  }

  @Post()
  @ConsoleAccess('assets.manage')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createAsset',
    summary: 'Create an asset',
    description: "As `POST /api/v1/assets`: counts against the plan's asset limit.",
  })
  @ApiCreatedResponse({ type: Asset, description: 'Created.' })
  @ApiErrors(409)
  create(@Caller() caller: ConsoleCaller, @Body() body: CreateAssetInput): Promise<AssetDetail> {
    return this.register.call(RegisterRpc.assetsCreate, caller, { body });
  }

  @Get('deleted')
  @ConsoleAccess('assets.view')
  @ApiOperation({
    operationId: 'listDeletedAssets',
    summary: 'The bin',
    description: `The ${DELETED_ASSETS_SHOWN} most recently deleted assets, newest first.`,
  })
  @ApiOkResponse({ type: [DeletedAsset], description: 'OK.' })
  deleted(@Caller() caller: ConsoleCaller): Promise<DeletedAsset[]> {
    return this.register.call(RegisterRpc.assetsDeleted, caller, {});
  }

  @Post('scan')
  @ConsoleAccess('assets.scan')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'scanAsset',
    summary: 'Scan a tag or serial number',
    description:
      'Finds the asset whose asset tag, else serial number, is the code (any case; the exact ' +
      'case wins), records when it was scanned and fires `asset.scanned`.',
  })
  @ApiOkResponse({ type: ScannedAsset, description: 'Found and recorded.' })
  @ApiErrors(404, 409)
  scan(@Caller() caller: ConsoleCaller, @Body() body: ScanBody): Promise<ScannedAsset> {
    return this.register.call(RegisterRpc.assetsScan, caller, { code: body.code });
  }

  @Get(':id')
  @ConsoleAccess('assets.view')
  @ApiIdParam('id', 'asset')
  @ApiOperation({ operationId: 'getAsset', summary: 'One asset' })
  @ApiOkResponse({ type: Asset, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<AssetDetail> {
    return this.register.call(RegisterRpc.assetsGet, caller, { id });
  }

  @Patch(':id')
  @ConsoleAccess('assets.manage')
  @ApiIdParam('id', 'asset')
  @ApiOperation({
    operationId: 'updateAsset',
    summary: 'Edit, check out or in, or change the condition of an asset',
    description: 'As `PATCH /api/v1/assets/{id}`.',
  })
  @ApiOkResponse({ type: Asset, description: 'The asset after the change.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 409, 412)
  update(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: UpdateAssetInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<AssetDetail> {
    return this.register.call(RegisterRpc.assetsUpdate, caller, {
      id,
      body,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }

  @Delete(':id')
  @ConsoleAccess('assets.manage')
  @ApiIdParam('id', 'asset')
  @ApiOperation({
    operationId: 'deleteAsset',
    summary: 'Move an asset to the bin',
    description:
      'Soft delete: the asset leaves lists, and fetches answer 404, until it is restored. ' +
      "Frees its slot of the plan's asset limit. Refused (409) while it is checked out. " +
      'Fires `asset.deleted`.',
  })
  @ApiOkResponse({ type: DeletedAsset, description: 'Deleted.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 409, 412)
  delete(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<DeletedAsset> {
    return this.register.call(RegisterRpc.assetsDelete, caller, {
      id,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }

  @Post(':id/restore')
  @ConsoleAccess('assets.manage')
  @HttpCode(200)
  @ApiIdParam('id', 'asset')
  @ApiOperation({
    operationId: 'restoreAsset',
    summary: 'Restore a deleted asset',
    description:
      'Back with the same id and fields. Needs its asset tag to be free and a slot of the ' +
      "plan's asset limit. Fires `asset.restored`.",
  })
  @ApiOkResponse({ type: Asset, description: 'Restored.' })
  @ApiErrors(404, 409)
  restore(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<AssetDetail> {
    return this.register.call(RegisterRpc.assetsRestore, caller, { id });
  }
}
