import {
  RegisterPatterns,
  type PersonDetail,
  type PersonSummary,
  type Page,
  type RawQuery,
} from '@custodian/contracts';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { RegisterClient } from '../register-client/register-client';

/** HTTP face of the register's people; validation and rules live in the register. */
@Controller('people')
export class PeopleController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  list(
    @Access() access: AccessRecord,
    @Query() query: RawQuery,
  ): Promise<PersonSummary[] | Page<PersonSummary>> {
    return this.register.call(RegisterPatterns.peopleList, access, { query: { ...query } });
  }

  @Post()
  @HttpCode(201)
  @RequiresScope('write')
  create(@Access() access: AccessRecord, @Body() body: unknown): Promise<PersonDetail> {
    return this.register.call(RegisterPatterns.peopleCreate, access, { body: body ?? null });
  }

  @Get(':id')
  @RequiresScope('read')
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<PersonDetail> {
    return this.register.call(RegisterPatterns.peopleGet, access, { id });
  }

  @Patch(':id')
  @RequiresScope('write')
  update(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<PersonDetail> {
    return this.register.call(RegisterPatterns.peopleUpdate, access, { id, body: body ?? null });
  }
}
