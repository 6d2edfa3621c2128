import {
  PERSON_STATUSES,
  Person,
  PersonPage,
  PersonSummary,
  RegisterRpc,
  CreatePersonInput,
  UpdatePersonInput,
  type PersonDetail,
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
import type { RequestIdentity } from '@custodian/messaging';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  ApiIdParam,
  ApiListQuery,
  ApiPlaceFilters,
  ApiUpdatedSince,
  ApiPageOrListResponse,
} from '../http/api-docs.decorators';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../http/entity-tags';

/** HTTP face of the register's people; validation and rules live in the register. */
@ApiTags('People')
@Controller('people')
export class PeopleController {
  constructor(
    private readonly register: RegisterClient,
    private readonly lists: UnpagedLists,
  ) {}

  @Get()
  @RequiresScope('read')
  @ApiListQuery(PERSON_STATUSES, 'full name, e-mail and employee number')
  @ApiPlaceFilters({ category: false })
  @ApiUpdatedSince()
  @ApiOperation({
    operationId: 'listPeople',
    summary: 'List people',
    description: 'Ordered by `created_at`, then `id`; stable across pages.',
  })
  @ApiPageOrListResponse(PersonPage, PersonSummary)
  @ApiErrors(400)
  @SendsRawJson()
  list(
    @Access() access: AccessRecord,
    @Query() query: RawQuery,
  ): Promise<ListReply<PersonSummary>> {
    return this.lists.list(RegisterRpc.peopleList, access, query);
  }

  @Post()
  @AcceptsIdempotencyKey()
  @ApiErrors(422)
  @HttpCode(201)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'createPerson',
    summary: 'Create a person',
    description:
      "Someone equipment is issued to (not a login). Counts against the plan's people " +
      'limit (403 when it is reached). Fires `employee.created`.',
  })
  @ApiCreatedResponse({ type: Person, description: 'Created: the new resource.' })
  create(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CreatePersonInput,
  ): Promise<PersonDetail> {
    return this.register.call(RegisterRpc.peopleCreate, access, { body }, identity);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiIdParam('id', 'person')
  @ApiOperation({
    operationId: 'getPerson',
    summary: 'Fetch one person',
    description: 'With department, location and the assets they hold.',
  })
  @ApiOkResponse({ type: Person, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<PersonDetail> {
    return this.register.call(RegisterRpc.peopleGet, access, { id });
  }

  @Patch(':id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'person')
  @ApiOperation({
    operationId: 'updatePerson',
    summary: 'Update a person',
    description:
      'Partial, as for assets. Setting `status` to `inactive` offboards the person and ' +
      'fires `employee.offboarded` (once).',
  })
  @ApiOkResponse({ type: Person, description: 'OK.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 412, 422)
  update(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdatePersonInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<PersonDetail> {
    return this.register.call(
      RegisterRpc.peopleUpdate,
      access,
      { id, body, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }
}
