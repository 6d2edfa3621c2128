import {
  Audit,
  AuditItemListQuery,
  AuditItemPage,
  AuditListQuery,
  AuditPage,
  AuditScan,
  AuditScanListQuery,
  AuditScanPage,
  CompleteAuditInput,
  ConsoleAuditScanInput,
  CreateAuditInput,
  RegisterRpc,
  type AuditItem,
  type Page,
} from '@custodian/contracts';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors, ApiIdParam } from '../../http/api-docs.decorators';
import { ConsoleRegister } from '../register/console-register';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';

/**
 * Audits for signed-in members: the API's messages with the member as the caller. Every role
 * sees them (`audits.view`); owners, admins and managers start, scan, complete and cancel
 * (`audits.manage`).
 */
@ApiTags('Audits')
@Controller('console/api')
export class ConsoleAuditsController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get('audits')
  @ConsoleAccess('audits.view')
  @ApiOperation({
    operationId: 'listAudits',
    summary: 'A page of audits',
    description: 'Newest first; `status` keeps one status.',
  })
  @ApiOkResponse({ type: AuditPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Caller() caller: ConsoleCaller, @Query() query: AuditListQuery): Promise<Page<Audit>> {
    return this.register.call(RegisterRpc.auditsList, caller, {
      query: { ...query, page: query.page ?? '1' },
    });
  }

  @Post('audits')
  @ConsoleAccess('audits.manage')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createAudit',
    summary: 'Start an audit',
    description: 'As `POST /api/v1/audits`: answers it `starting`; `audit.started` follows.',
  })
  @ApiCreatedResponse({ type: Audit, description: 'Created, starting.' })
  @ApiErrors(400, 404)
  create(@Caller() caller: ConsoleCaller, @Body() body: CreateAuditInput): Promise<Audit> {
    return this.register.call(RegisterRpc.auditsCreate, caller, { body });
  }

  @Get('audits/:id')
  @ConsoleAccess('audits.view')
  @ApiIdParam('id', 'audit')
  @ApiOperation({ operationId: 'getAudit', summary: 'One audit, with its live counts' })
  @ApiOkResponse({ type: Audit, description: 'OK.' })
  @ApiErrors(404)
  get(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Audit> {
    return this.register.call(RegisterRpc.auditsGet, caller, { id });
  }

  @Get('audits/:id/scans')
  @ConsoleAccess('audits.view')
  @ApiIdParam('id', 'audit')
  @ApiOperation({
    operationId: 'listAuditScans',
    summary: 'A page of an audit’s scans',
    description: 'Newest first; `outcome` found (misplaced included), unexpected or misplaced.',
  })
  @ApiOkResponse({ type: AuditScanPage, description: 'OK.' })
  @ApiErrors(400, 404)
  scans(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Query() query: AuditScanListQuery,
  ): Promise<Page<AuditScan>> {
    return this.register.call(RegisterRpc.auditsScans, caller, {
      id,
      query: { ...query, page: query.page ?? '1' },
    });
  }

  @Post('audits/:id/scans')
  @ConsoleAccess('audits.manage')
  @HttpCode(201)
  @ApiIdParam('id', 'audit')
  @ApiOperation({
    operationId: 'scanIntoAudit',
    summary: 'Scan a code into an audit',
    description:
      'A tag, else a serial number, as a barcode scanner types it (as `POST ' +
      '/console/api/assets/scan`), and where the scanner is. Scanned before in this audit: 200 ' +
      'with that scan, `repeated: true`. The audit not open: 409.',
  })
  @ApiCreatedResponse({ type: AuditScan, description: 'Recorded.' })
  @ApiOkResponse({ type: AuditScan, description: 'Scanned before in this audit: that scan.' })
  @ApiErrors(400, 404, 409)
  async scan(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: ConsoleAuditScanInput,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuditScan> {
    const scan = await this.register.call(RegisterRpc.auditsConsoleScan, caller, { id, body });
    if (scan.repeated) void reply.status(200);
    return scan;
  }

  @Get('audits/:id/items')
  @ConsoleAccess('audits.view')
  @ApiIdParam('id', 'audit')
  @ApiOperation({
    operationId: 'listAuditItems',
    summary: 'A page of an audit’s assets by state',
    description: '`state`: expected (default), found, missing, unexpected or misplaced.',
  })
  @ApiOkResponse({ type: AuditItemPage, description: 'OK.' })
  @ApiErrors(400, 404)
  items(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Query() query: AuditItemListQuery,
  ): Promise<Page<AuditItem>> {
    return this.register.call(RegisterRpc.auditsItems, caller, {
      id,
      query: { ...query, page: query.page ?? '1' },
    });
  }

  @Post('audits/:id/complete')
  @ConsoleAccess('audits.manage')
  @HttpCode(202)
  @ApiIdParam('id', 'audit')
  @ApiOperation({
    operationId: 'completeAudit',
    summary: 'Complete an audit',
    description: 'As `POST /api/v1/audits/{id}/complete`: 202, completing in the background.',
  })
  @ApiAcceptedResponse({ type: Audit, description: 'Accepted: completing.' })
  @ApiErrors(400, 404, 409)
  complete(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: CompleteAuditInput,
  ): Promise<Audit> {
    return this.register.call(RegisterRpc.auditsComplete, caller, { id, body });
  }

  @Post('audits/:id/cancel')
  @ConsoleAccess('audits.manage')
  @HttpCode(200)
  @ApiIdParam('id', 'audit')
  @ApiOperation({ operationId: 'cancelAudit', summary: 'Cancel an open audit' })
  @ApiOkResponse({ type: Audit, description: 'Cancelled.' })
  @ApiErrors(404, 409)
  cancel(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Audit> {
    return this.register.call(RegisterRpc.auditsCancel, caller, { id });
  }
}
