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
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiIdParam } from '../../http/api-docs.decorators';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../../http/entity-tags';
import { ConsoleRegister } from '../register/console-register';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';

/**
 * Maintenance records for signed-in members: the API's messages with the member as the
 * caller. Every role sees them (`maintenance.view`); owners, admins and managers log, change
 * and resolve them (`maintenance.manage`).
 */
@ApiTags('Maintenance')
@Controller('console/api')
export class ConsoleMaintenanceController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get('maintenance')
  @ConsoleAccess('maintenance.view')
  @ApiOperation({
    operationId: 'listMaintenance',
    summary: 'A page of maintenance records',
    description: 'Newest first; `status` open or resolved; `asset_id` one asset’s.',
  })
  @ApiOkResponse({ type: MaintenancePage, description: 'OK.' })
  @ApiErrors(400)
  list(
    @Caller() caller: ConsoleCaller,
    @Query() query: MaintenanceListQuery,
  ): Promise<Page<Maintenance>> {
    return this.register.call(RegisterRpc.maintenanceList, caller, {
      query: { ...query, page: query.page ?? '1' },
    });
  }

  @Get('assets/:id/maintenance')
  @ConsoleAccess('maintenance.view')
  @ApiIdParam('id', 'asset')
  @ApiOperation({
    operationId: 'listAssetMaintenance',
    summary: 'A page of an asset’s maintenance records',
    description: 'Newest first; `status` open or resolved.',
  })
  @ApiOkResponse({ type: MaintenancePage, description: 'OK.' })
  @ApiErrors(400, 404)
  listOfAsset(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Query() query: MaintenanceListQuery,
  ): Promise<Page<Maintenance>> {
    return this.register.call(RegisterRpc.assetMaintenanceList, caller, {
      id,
      query: { ...query, page: query.page ?? '1' },
    });
  }

  @Post('assets/:id/maintenance')
  @ConsoleAccess('maintenance.manage')
  @HttpCode(201)
  @ApiIdParam('id', 'asset')
  @ApiOperation({
    operationId: 'createMaintenance',
    summary: 'Log a maintenance record',
    description:
      'As `POST /api/v1/assets/{id}/maintenance`; `set_asset_status` puts the asset in ' +
      '`maintenance`. Fires `maintenance.created`.',
  })
  @ApiCreatedResponse({ type: Maintenance, description: 'Created.' })
  @ApiErrors(400, 404)
  create(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: CreateMaintenanceInput,
  ): Promise<Maintenance> {
    return this.register.call(RegisterRpc.maintenanceCreate, caller, { id, body });
  }

  @Get('maintenance/:id')
  @ConsoleAccess('maintenance.view')
  @ApiIdParam('id', 'maintenance record')
  @ApiOperation({ operationId: 'getMaintenance', summary: 'One maintenance record' })
  @ApiOkResponse({ type: Maintenance, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Maintenance> {
    return this.register.call(RegisterRpc.maintenanceGet, caller, { id });
  }

  @Patch('maintenance/:id')
  @ConsoleAccess('maintenance.manage')
  @ApiIdParam('id', 'maintenance record')
  @ApiOperation({
    operationId: 'updateMaintenance',
    summary: 'Change a maintenance record',
    description: 'As `PATCH /api/v1/maintenance/{id}`.',
  })
  @ApiOkResponse({ type: Maintenance, description: 'The record after the change.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 404, 412)
  update(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: UpdateMaintenanceInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Maintenance> {
    return this.register.call(RegisterRpc.maintenanceUpdate, caller, {
      id,
      body,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }

  @Post('maintenance/:id/resolve')
  @ConsoleAccess('maintenance.manage')
  @HttpCode(200)
  @ApiIdParam('id', 'maintenance record')
  @ApiOperation({
    operationId: 'resolveMaintenance',
    summary: 'Resolve a maintenance record',
    description:
      'As `POST /api/v1/maintenance/{id}/resolve`: the asset’s status goes back when this ' +
      'record put it in `maintenance`. Resolved already: 409. Fires `maintenance.resolved`.',
  })
  @ApiOkResponse({ type: Maintenance, description: 'Resolved.' })
  @ApiErrors(400, 404, 409)
  resolve(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: ResolveMaintenanceInput,
  ): Promise<Maintenance> {
    return this.register.call(RegisterRpc.maintenanceResolve, caller, { id, body });
  }
}
