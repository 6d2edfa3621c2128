import {
  RegisterPatterns,
  type AssetDetail,
  type AssetSummary,
  type Page,
  type RawQuery,
} from '@custodian/contracts';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { RegisterClient } from '../register-client/register-client';

/** HTTP face of the register's assets; validation and rules live in the register. */
@Controller('assets')
export class AssetsController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  list(
    @Access() access: AccessRecord,
    @Query() query: RawQuery,
  ): Promise<AssetSummary[] | Page<AssetSummary>> {
    return this.register.call(RegisterPatterns.assetsList, access, { query: { ...query } });
  }

  @Post()
  @HttpCode(201)
  @RequiresScope('write')
  create(@Access() access: AccessRecord, @Body() body: unknown): Promise<AssetDetail> {
    return this.register.call(RegisterPatterns.assetsCreate, access, { body: body ?? null });
  }

  @Get(':id')
  @RequiresScope('read')
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<AssetDetail> {
    return this.register.call(RegisterPatterns.assetsGet, access, { id });
  }

  @Patch(':id')
  @RequiresScope('write')
  update(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<AssetDetail> {
    return this.register.call(RegisterPatterns.assetsUpdate, access, { id, body: body ?? null });
  }
}
