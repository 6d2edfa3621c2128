import {
  ASSET_CSV_COLUMNS,
  ASSET_SORT_VALUES,
  ASSET_STATUSES,
  Asset,
  AssetPage,
  AssetSummary,
  RegisterRpc,
  CreateAssetInput,
  PERSON_HOLDINGS_MAX,
  UpdateAssetInput,
  DomainError,
  type AssetDetail,
  type AssetUpsertKey,
  type ListReply,
  type RawQuery,
} from '@custodian/contracts';
import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
  applyDecorators,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { RegisterClient } from '../register-client/register-client';
import { UnpagedLists } from '../register-client/unpaged-lists';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { SendsRawJson } from '../http/raw-json';
import { ApiCsvExport, sendCsvExport } from '../http/csv-export';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../http/entity-tags';
import type { RequestIdentity } from '@custodian/messaging';
import {
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
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

  @Get('export')
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'exportAssets',
    summary: 'Export assets as CSV',
    description:
      "The list's filters (`status`, `search`, `assigned_to_id`, `warranty_expires_before`, " +
      '`location_id` with `include_children`, `category_id`, `updated_since`) choose the rows; ' +
      '`columns` the columns.',
  })
  @ApiCsvExport('asset', ASSET_CSV_COLUMNS)
  @ApiErrors(400)
  async export(
    @Access() access: AccessRecord,
    @Query() query: RawQuery,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendCsvExport(reply, 'assets', (after) =>
      this.register.call(RegisterRpc.assetsExport, access, { query, ...(after ? { after } : {}) }),
    );
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

  @Put('by-serial/:serial')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiParam({
    name: 'serial',
    required: true,
    description: 'The serial number, exactly (case counts); URL-encoded.',
    schema: { type: 'string', minLength: 1, maxLength: 200 },
  })
  @ApiUpsert('serial number', 'upsertAssetBySerial')
  upsertBySerial(
    @Access() access: AccessRecord,
    @Param('serial') serial: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateAssetInput,
    @IfMatch() ifMatch: string[] | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AssetDetail> {
    return this.upsert(
      access,
      'serial_number',
      serial,
      body,
      identity,
      ifMatch,
      ifNoneMatch,
      reply,
    );
  }

  @Put('by-tag/:tag')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiParam({
    name: 'tag',
    required: true,
    description: 'The asset tag, exactly (case counts); URL-encoded.',
    schema: { type: 'string', minLength: 1, maxLength: 64 },
  })
  @ApiUpsert('asset tag', 'upsertAssetByTag')
  upsertByTag(
    @Access() access: AccessRecord,
    @Param('tag') tag: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateAssetInput,
    @IfMatch() ifMatch: string[] | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AssetDetail> {
    return this.upsert(access, 'asset_tag', tag, body, identity, ifMatch, ifNoneMatch, reply);
  }

  private async upsert(
    access: AccessRecord,
    by: AssetUpsertKey,
    key: string,
    body: UpdateAssetInput,
    identity: RequestIdentity | undefined,
    ifMatch: string[] | undefined,
    ifNoneMatch: string | undefined,
    reply: FastifyReply,
  ): Promise<AssetDetail> {
    if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*') {
      throw new DomainError(
        'invalid_input',
        'If-None-Match on PUT takes * alone (create only, 412 when the asset exists)',
      );
    }
    const { created, asset } = await this.register.call(
      RegisterRpc.assetsUpsert,
      access,
      {
        by,
        key,
        body,
        ...(ifMatch ? { if_match: ifMatch } : {}),
        ...(ifNoneMatch !== undefined ? { create_only: true } : {}),
      },
      identity,
    );
    void reply.status(created ? 201 : 200);
    return asset;
  }
}

/** The document's side of PUT /assets/by-serial/{serial} and by-tag/{tag}. */
function ApiUpsert(what: string, operationId: string): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId,
      summary: `Create or update an asset by its ${what}`,
      description:
        `The asset whose ${what} is exactly the one in the path is changed as PATCH changes ` +
        '(omitted fields keep their value; fires `asset.updated`, and `assignment.*` for ' +
        `custody): 200. With none, one is created as POST creates (with that ${what}; \`name\` ` +
        "is then required; counts against the plan's asset limit; fires `asset.created`): " +
        `201. Race-free: two calls for the same new ${what} make one asset. The body's ` +
        `\`${what === 'asset tag' ? 'asset_tag' : 'serial_number'}\`, if given, must be the ` +
        "path's. `If-Match`: change only that version (412 if none exists); " +
        '`If-None-Match: *`: create only (412 if one exists).',
    }),
    ApiOkResponse({ type: Asset, description: 'Changed: the asset after the change.' }),
    ApiCreatedResponse({ type: Asset, description: 'Created: the new asset.' }),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: '`*`: create only; 412 when an asset has it already.',
    }),
    ApiConditionalWrite(),
    ApiErrors(400, 409, 412, 422),
  );
}
