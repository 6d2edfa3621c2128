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
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, ApiIdParam } from '../../http/api-docs.decorators';
import { uploadImport } from '../../imports/csv-upload';
import { ConsoleRegister } from '../register/console-register';
import { Caller, ConsoleAccess, WithoutIdempotencyKey } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';

/**
 * CSV imports for signed-in members: the API's upload (imports/csv-upload.ts) and messages,
 * with the member as the caller, so an import's rows are written, logged and sent as events
 * in their name. Owners, admins and managers (`imports.manage`).
 */
@ApiTags('Imports')
@Controller('console/api/imports')
export class ConsoleImportsController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get()
  @ConsoleAccess('imports.manage')
  @ApiOperation({
    operationId: 'listImports',
    summary: 'A page of imports',
    description: 'Newest first.',
  })
  @ApiOkResponse({ type: ImportPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Caller() caller: ConsoleCaller, @Query() query: ImportListQuery): Promise<Page<Import>> {
    return this.register.call(RegisterRpc.importsList, caller, { query });
  }

  @Post()
  @HttpCode(202)
  @ConsoleAccess('imports.manage')
  // A file uploaded twice is two dry runs, and a dry run changes nothing until it is started
  // (which does take a key); the body is a stream, never held whole to fingerprint.
  @WithoutIdempotencyKey('an upload only plans; nothing is written until the import is started')
  @ApiOperation({
    operationId: 'createImport',
    summary: 'Upload a CSV file to import',
    description:
      `As \`POST /api/v1/imports\`: the file is the body (\`text/csv\`, at most ` +
      `${IMPORT_MAX_BYTES / 1024 / 1024} MiB and 200,000 rows); every row is planned, and ` +
      'with `dry_run=true` (the default) the import waits for `POST .../start`.',
  })
  @ApiConsumes('text/csv')
  @ApiBody({ schema: { type: 'string' }, description: 'The CSV file.' })
  @ApiAcceptedResponse({ type: Import, description: 'Stored; the dry run is under way.' })
  @ApiErrors(400, 413, 415)
  create(
    @Caller('unkeyed') caller: ConsoleCaller,
    @Query() query: CreateImportQuery,
    @Body() body: unknown,
    @Headers('content-length') contentLength: string | undefined,
  ): Promise<Import> {
    return uploadImport(body, query, contentLength, (contract, message) =>
      this.register.call(contract, caller, message),
    );
  }

  @Get(':id')
  @ConsoleAccess('imports.manage')
  @ApiIdParam('id', 'import')
  @ApiOperation({
    operationId: 'getImport',
    summary: 'One import',
    description: 'Its status, the dry run’s counts, its progress and its results.',
  })
  @ApiOkResponse({ type: Import, description: 'OK.' })
  @ApiErrors(404)
  get(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Import> {
    return this.register.call(RegisterRpc.importsGet, caller, { id });
  }

  @Get(':id/rows')
  @ConsoleAccess('imports.manage')
  @ApiIdParam('id', 'import')
  @ApiOperation({
    operationId: 'listImportRows',
    summary: "A page of an import's rows",
    description: 'In file order, each with its cells, its plan and its result (and why).',
  })
  @ApiOkResponse({ type: ImportRowPage, description: 'OK.' })
  @ApiErrors(400, 404)
  rows(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Query() query: ImportRowListQuery,
  ): Promise<Page<ImportRow>> {
    return this.register.call(RegisterRpc.importsRows, caller, { id, query });
  }

  @Post(':id/start')
  @HttpCode(202)
  @ConsoleAccess('imports.manage')
  @ApiIdParam('id', 'import')
  @ApiOperation({
    operationId: 'startImport',
    summary: 'Apply a dry run',
    description: 'A `planned` import goes on: its rows are applied in the background.',
  })
  @ApiAcceptedResponse({ type: Import, description: 'Under way.' })
  @ApiErrors(404, 409)
  start(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Import> {
    return this.register.call(RegisterRpc.importsStart, caller, { id });
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ConsoleAccess('imports.manage')
  @ApiIdParam('id', 'import')
  @ApiOperation({
    operationId: 'cancelImport',
    summary: 'Cancel an import',
    description: 'Stops it where it is: rows applied so far stay, the others never are.',
  })
  @ApiOkResponse({ type: Import, description: 'Cancelled.' })
  @ApiErrors(404, 409)
  cancel(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Import> {
    return this.register.call(RegisterRpc.importsCancel, caller, { id });
  }
}
