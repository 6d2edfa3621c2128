import {
  PERSON_STATUSES,
  PersonPage,
  RegisterRpc,
  type PersonSummary,
  type Page,
  type RawQuery,
} from '@custodian/contracts';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../openapi/api-docs.decorators';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';
import { ConsoleRegister } from './console-register';

/** People of the workspace, as the API lists them (the check-out picker reads it). */
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
  @ApiOkResponse({ type: PersonPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Caller() caller: ConsoleCaller, @Query() query: RawQuery): Promise<Page<PersonSummary>> {
    return this.register.page(RegisterRpc.peopleList, caller, query);
  }
}
