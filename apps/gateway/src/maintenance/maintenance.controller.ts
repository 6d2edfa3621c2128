import {
  CreateMaintenanceInput,
  Maintenance,
  MaintenanceListQuery,
  MaintenancePage,
  RegisterRpc,
  ResolveMaintenanceInput,
  UpdateMaintenanceInput,
  type Page,
} from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors, ApiIdParam } from '../http/api-docs.decorators';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../http/entity-tags';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { RegisterClient } from '../register-client/register-client';

const LISTED =
  'Paged (`page`, `pageSize` up to 200), newest first. `status` keeps the open or the resolved ' +
  'records.';

/** HTTP face of the register's maintenance records; the rules live there. */
@ApiTags('Maintenance')
@Controller()
export class MaintenanceController {
  constructor(private readonly register: RegisterClient) {}

  @Get('maintenance')
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'listMaintenance',
    summary: 'List maintenance records',
    description: `The workspace's records, of every asset (\`asset_id\` keeps one asset's). ${LISTED}`,
  })
  @ApiOkResponse({ type: MaintenancePage, description: 'OK.' })
  @ApiErrors(400)
  list(
    @Access() access: AccessRecord,
    @Query() query: MaintenanceListQuery,
  ): Promise<Page<Maintenance>> {
    return this.register.call(RegisterRpc.maintenanceList, access, { query });
  }

  @Get('assets/:id/maintenance')
  @RequiresScope('read')
  @ApiIdParam('id', 'asset')
  @ApiOperation({
    operationId: 'listAssetMaintenance',
    summary: 'List an asset’s maintenance records',
    description: `${LISTED} An asset in the bin is a 404.`,
  })
  @ApiOkResponse({ type: MaintenancePage, description: 'OK.' })
  @ApiErrors(400, 404)
  listOfAsset(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @Query() query: MaintenanceListQuery,
  ): Promise<Page<Maintenance>> {
    return this.register.call(RegisterRpc.assetMaintenanceList, access, { id, query });
  }

  @Post('assets/:id/maintenance')
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiIdParam('id', 'asset')
  @ApiOperation({
    operationId: 'createMaintenance',
    summary: 'Log a maintenance record on an asset',
    description:
      'Open until resolved. With `set_asset_status: true` the asset goes to status ' +
      '`maintenance` in the same transaction (`asset.updated`, as a PATCH of the asset), and ' +
      '`asset_status_before` remembers the status it had. An asset in the bin is a 404. Fires ' +
      '`maintenance.created`.',
  })
  @ApiCreatedResponse({ type: Maintenance, description: 'Created.' })
  @ApiErrors(400, 404, 422)
  create(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CreateMaintenanceInput,
  ): Promise<Maintenance> {
    return this.register.call(RegisterRpc.maintenanceCreate, access, { id, body }, identity);
  }

  @Get('maintenance/:id')
  @RequiresScope('read')
  @ApiIdParam('id', 'maintenance record')
  @ApiOperation({ operationId: 'getMaintenance', summary: 'Fetch one maintenance record' })
  @ApiOkResponse({ type: Maintenance, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<Maintenance> {
    return this.register.call(RegisterRpc.maintenanceGet, access, { id });
  }

  @Patch('maintenance/:id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'maintenance record')
  @ApiOperation({
    operationId: 'updateMaintenance',
    summary: 'Change a maintenance record',
    description:
      'Partial; `null` clears a field (not `title` nor `type`). Open or resolved alike; the ' +
      'status changes only by POST /maintenance/{id}/resolve. No event (the feed records it).',
  })
  @ApiOkResponse({ type: Maintenance, description: 'OK.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 404, 412, 422)
  update(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateMaintenanceInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Maintenance> {
    return this.register.call(
      RegisterRpc.maintenanceUpdate,
      access,
      { id, body, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }

  @Post('maintenance/:id/resolve')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'maintenance record')
  @ApiOperation({
    operationId: 'resolveMaintenance',
    summary: 'Resolve a maintenance record',
    description:
      '`notes` are the resolution notes; `cost` given replaces the record’s. When the record ' +
      'put the asset in `maintenance`, the asset is still there and no other open record holds ' +
      'it there, it goes back to `asset_status_before` in the same transaction ' +
      '(`asset.updated`). Resolved already: 409. The asset in the bin: 409 (restore it first). ' +
      'Fires `maintenance.resolved`.',
  })
  @ApiOkResponse({ type: Maintenance, description: 'Resolved.' })
  @ApiErrors(400, 404, 409, 422)
  resolve(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: ResolveMaintenanceInput,
  ): Promise<Maintenance> {
    return this.register.call(RegisterRpc.maintenanceResolve, access, { id, body }, identity);
  }
}
