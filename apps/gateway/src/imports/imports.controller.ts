import {
  CreateImportQuery,
  IMPORT_MAX_BYTES,
  Import,
  ImportListQuery,
  ImportPage,
  ImportRowListQuery,
  ImportRowPage,
  RegisterRpc,
  type ImportRow,
  type Page,
} from '@custodian/contracts';
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors, ApiIdParam } from '../http/api-docs.decorators';
import { RegisterClient } from '../register-client/register-client';
import { uploadImport } from './csv-upload';

/** CSV imports of assets and people: the gateway reads the file, the register does the rest. */
@ApiTags('Imports')
@Controller('imports')
export class ImportsController {
  constructor(private readonly register: RegisterClient) {}

  @Post()
  @HttpCode(202)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'createImport',
    summary: 'Import assets or people from a CSV file',
    description:
      `The body is the file (\`text/csv\`, UTF-8, at most ${IMPORT_MAX_BYTES / 1024 / 1024} ` +
      'MiB and 200,000 rows), its first line the header: the columns of an export ' +
      '(`GET /assets/export`, `GET /people/export`), custom fields by key or label. Every ' +
      'row is planned first, the dry run: created, updated (an asset matched by `id`, else ' +
      '`asset_tag`, else `serial_number`; a person by `id`, else `email`, else ' +
      "`employee_number`) or refused and why, naming the column (a bad value, the plan's " +
      'limit, a second row for one record). With `dry_run=true` (the default) it then waits ' +
      'for `POST /imports/{id}/start`; else it goes on at once. Rows are applied in the ' +
      'background, with the events and feed entries of the API, a crash resuming where it ' +
      'stopped. An empty cell leaves a field as it is. Follow it with `GET /imports/{id}`.',
  })
  @ApiConsumes('text/csv')
  @ApiBody({ schema: { type: 'string' }, description: 'The CSV file.' })
  @ApiAcceptedResponse({ type: Import, description: 'Stored; the dry run is under way.' })
  @ApiErrors(400, 413, 415)
  async create(
    @Access() access: AccessRecord,
    @Query() query: CreateImportQuery,
    @Body() body: unknown,
    @Headers('content-length') contentLength: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Import> {
    const created = await uploadImport(body, query, contentLength, (contract, message) =>
      this.register.call(contract, access, message),
    );
    void reply.header('location', `/api/v1/imports/${created.id}`);
    return created;
  }

  @Get()
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'listImports',
    summary: 'List imports',
    description: 'Newest first.',
  })
  @ApiOkResponse({ type: ImportPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Access() access: AccessRecord, @Query() query: ImportListQuery): Promise<Page<Import>> {
    return this.register.call(RegisterRpc.importsList, access, { query });
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiIdParam('id', 'import')
  @ApiOperation({
    operationId: 'getImport',
    summary: 'Fetch one import',
    description: 'Its status, the dry run’s counts, its progress and its results.',
  })
  @ApiOkResponse({ type: Import, description: 'OK.' })
  @ApiErrors(404)
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<Import> {
    return this.register.call(RegisterRpc.importsGet, access, { id });
  }

  @Get(':id/rows')
  @RequiresScope('read')
  @ApiIdParam('id', 'import')
  @ApiOperation({
    operationId: 'listImportRows',
    summary: "An import's rows",
    description: 'In file order, each with its cells, its plan and its result (and why).',
  })
  @ApiOkResponse({ type: ImportRowPage, description: 'OK.' })
  @ApiErrors(400, 404)
  rows(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @Query() query: ImportRowListQuery,
  ): Promise<Page<ImportRow>> {
    return this.register.call(RegisterRpc.importsRows, access, { id, query });
  }

  @Post(':id/start')
  @HttpCode(202)
  @RequiresScope('write')
  @ApiIdParam('id', 'import')
  @ApiOperation({
    operationId: 'startImport',
    summary: 'Apply a dry run',
    description: 'A `planned` import goes on: its rows are applied in the background.',
  })
  @ApiAcceptedResponse({ type: Import, description: 'Under way.' })
  @ApiErrors(404, 409)
  start(@Access() access: AccessRecord, @Param('id') id: string): Promise<Import> {
    return this.register.call(RegisterRpc.importsStart, access, { id });
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'import')
  @ApiOperation({
    operationId: 'cancelImport',
    summary: 'Cancel an import',
    description: 'Stops it where it is: rows applied so far stay, the others never are.',
  })
  @ApiOkResponse({ type: Import, description: 'Cancelled.' })
  @ApiErrors(404, 409)
  cancel(@Access() access: AccessRecord, @Param('id') id: string): Promise<Import> {
    return this.register.call(RegisterRpc.importsCancel, access, { id });
  }
}
