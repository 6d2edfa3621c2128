import {
  CreatePersonInput,
  PERSON_STATUSES,
  Person,
  PersonPage,
  RegisterRpc,
  UpdatePersonInput,
  type Page,
  type PersonDetail,
  type PersonSummary,
  type RawQuery,
} from '@custodian/contracts';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
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
 * People of the workspace for signed-in members: the API's messages, so a person made or
 * offboarded here meets the same validation, people limit and employee.* events.
 */
@ApiTags('People')
@Controller('console/api/people')
export class ConsolePeopleController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get()
  @ConsoleAccess('people.view')
  @ApiOperation({ operationId: 'listPeople', summary: 'A page of people' })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1 } })
  @ApiQuery({ name: 'pageSize', required: false, schema: { type: 'integer', minimum: 1 } })
  @ApiQuery({
    name: 'status',
    required: false,
    schema: { type: 'string', enum: [...PERSON_STATUSES] },
  })
  @ApiQuery({ name: 'search', required: false, schema: { type: 'string', maxLength: 200 } })
  @ApiPlaceFilters({ category: false })
  @ApiOkResponse({ type: PersonPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Caller() caller: ConsoleCaller, @Query() query: RawQuery): Promise<Page<PersonSummary>> {
    return this.register.page(RegisterRpc.peopleList, caller, query);
  }

  @Post()
  @ConsoleAccess('people.manage')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createPerson',
    summary: 'Create a person',
    description:
      "As `POST /api/v1/people`: counts against the plan's people limit. Fires " +
      '`employee.created`.',
  })
  @ApiCreatedResponse({ type: Person, description: 'Created.' })
  create(@Caller() caller: ConsoleCaller, @Body() body: CreatePersonInput): Promise<PersonDetail> {
    return this.register.call(RegisterRpc.peopleCreate, caller, { body });
  }

  @Get(':id')
  @ConsoleAccess('people.view')
  @ApiIdParam('id', 'person')
  @ApiOperation({
    operationId: 'getPerson',
    summary: 'One person',
    description: 'With department, location and the assets they hold.',
  })
  @ApiOkResponse({ type: Person, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<PersonDetail> {
    return this.register.call(RegisterRpc.peopleGet, caller, { id });
  }

  @Patch(':id')
  @ConsoleAccess('people.manage')
  @ApiIdParam('id', 'person')
  @ApiOperation({
    operationId: 'updatePerson',
    summary: 'Edit or offboard a person',
    description:
      'As `PATCH /api/v1/people/{id}`. Setting `status` to `inactive` offboards the person ' +
      '(what they hold stays checked out to them) and fires `employee.offboarded` (once).',
  })
  @ApiOkResponse({ type: Person, description: 'The person after the change.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 412)
  update(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: UpdatePersonInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<PersonDetail> {
    return this.register.call(RegisterRpc.peopleUpdate, caller, {
      id,
      body,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }
}
