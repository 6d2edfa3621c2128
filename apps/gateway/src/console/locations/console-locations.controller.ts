import {
  CreateLocationInput,
  RegisterRpc,
  Location,
  LocationListQuery,
  LocationPage,
  UpdateLocationInput,
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
 * Locations for signed-in members: the API's messages with the member as the caller. Every
 * role sees them (`locations.view`); owners, admins and managers change them (`locations.manage`).
 */
@ApiTags('Locations')
@Controller('console/api/locations')
export class ConsoleLocationsController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get()
  @ConsoleAccess('locations.view')
  @ApiOperation({
    operationId: 'listLocations',
    summary: 'A page of locations',
    description: 'As `GET /api/v1/locations`.',
  })
  @ApiOkResponse({ type: LocationPage, description: 'OK.' })
  @ApiErrors(400)
  list(
    @Caller() caller: ConsoleCaller,
    @Query() query: LocationListQuery,
  ): Promise<Page<Location>> {
    return this.register.call(RegisterRpc.locationsList, caller, {
      query: { ...query, page: query.page ?? '1' },
    });
  }

  @Post()
  @ConsoleAccess('locations.manage')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createLocation',
    summary: 'Add a location',
    description: 'As `POST /api/v1/locations`.',
  })
  @ApiCreatedResponse({ type: Location, description: 'Created.' })
  @ApiErrors(400, 404, 409)
  create(@Caller() caller: ConsoleCaller, @Body() body: CreateLocationInput): Promise<Location> {
    return this.register.call(RegisterRpc.locationsCreate, caller, { body });
  }

  @Get(':id')
  @ConsoleAccess('locations.view')
  @ApiIdParam('id', 'location')
  @ApiOperation({ operationId: 'getLocation', summary: 'One location' })
  @ApiOkResponse({ type: Location, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Location> {
    return this.register.call(RegisterRpc.locationsGet, caller, { id });
  }

  @Patch(':id')
  @ConsoleAccess('locations.manage')
  @ApiIdParam('id', 'location')
  @ApiOperation({
    operationId: 'updateLocation',
    summary: 'Change a location',
    description: 'As `PATCH /api/v1/locations/{id}`.',
  })
  @ApiOkResponse({ type: Location, description: 'After the change.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 404, 409, 412)
  update(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: UpdateLocationInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Location> {
    return this.register.call(RegisterRpc.locationsUpdate, caller, {
      id,
      body,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }

  @Delete(':id')
  @ConsoleAccess('locations.manage')
  @ApiIdParam('id', 'location')
  @ApiOperation({
    operationId: 'deleteLocation',
    summary: 'Delete a location',
    description: 'As `DELETE /api/v1/locations/{id}`: only when nothing uses it.',
  })
  @ApiOkResponse({ type: Location, description: 'Deleted.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 409, 412)
  delete(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Location> {
    return this.register.call(RegisterRpc.locationsDelete, caller, {
      id,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }
}
