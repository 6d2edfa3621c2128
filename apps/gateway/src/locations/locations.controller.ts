import {
  CreateLocationInput,
  Location,
  LocationListQuery,
  LocationPage,
  RegisterRpc,
  UpdateLocationInput,
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

/** HTTP face of the register's locations; the rules live there. */
@ApiTags('Locations')
@Controller('locations')
export class LocationsController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'listLocations',
    summary: 'List locations (the tree)',
    description:
      'Paged, in tree order: each place right after its parent, siblings by name, with its ' +
      '`depth` and `path`, so the pages read in order draw the tree. `parent_id` keeps the ' +
      'places directly in one (`top`: the top level), `search` those whose name contains it.',
  })
  @ApiOkResponse({ type: LocationPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Access() access: AccessRecord, @Query() query: LocationListQuery): Promise<Page<Location>> {
    return this.register.call(RegisterRpc.locationsList, access, { query });
  }

  @Post()
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'createLocation',
    summary: 'Create a location',
    description:
      'At the top level, or in `parent_id` (at most 8 levels). A name is unique among the ' +
      'places of the same parent, any case: a second one is a 409.',
  })
  @ApiCreatedResponse({ type: Location, description: 'Created.' })
  @ApiErrors(400, 409, 422)
  create(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CreateLocationInput,
  ): Promise<Location> {
    return this.register.call(RegisterRpc.locationsCreate, access, { body }, identity);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiIdParam('id', 'location')
  @ApiOperation({ operationId: 'getLocation', summary: 'Fetch one location' })
  @ApiOkResponse({ type: Location, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<Location> {
    return this.register.call(RegisterRpc.locationsGet, access, { id });
  }

  @Patch(':id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'location')
  @ApiOperation({
    operationId: 'updateLocation',
    summary: 'Rename, move or change a location',
    description:
      'Partial. `parent_id` moves it with everything under it (null: to the top level); into ' +
      'itself or a place under it is a 400 naming `parent_id`, as is a tree deeper than 8 ' +
      'levels. A name already used among its new siblings is a 409.',
  })
  @ApiOkResponse({ type: Location, description: 'OK.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 404, 409, 412, 422)
  update(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateLocationInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Location> {
    return this.register.call(
      RegisterRpc.locationsUpdate,
      access,
      { id, body, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }

  @Delete(':id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'location')
  @ApiOperation({
    operationId: 'deleteLocation',
    summary: 'Delete an empty location',
    description:
      'Only a place that holds no asset, person or place: otherwise a 409 saying how many it ' +
      'holds. Answers the place as it was.',
  })
  @ApiOkResponse({ type: Location, description: 'Deleted.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 409, 412, 422)
  delete(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Location> {
    return this.register.call(
      RegisterRpc.locationsDelete,
      access,
      { id, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }
}
