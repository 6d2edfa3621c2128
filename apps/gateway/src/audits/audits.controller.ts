import {
  Audit,
  AuditItemListQuery,
  AuditItemPage,
  AuditListQuery,
  AuditPage,
  AuditScan,
  AuditScanInput,
  AuditScanListQuery,
  AuditScanPage,
  CompleteAuditInput,
  CreateAuditInput,
  RegisterRpc,
  type AuditItem,
  type Page,
} from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors, ApiIdParam } from '../http/api-docs.decorators';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { RegisterClient } from '../register-client/register-client';

const PAGED = 'Paged (`page`, `pageSize` up to 200).';

/** HTTP face of the register's audits (stock-takes); the rules live there. */
@ApiTags('Audits')
@Controller()
export class AuditsController {
  constructor(private readonly register: RegisterClient) {}

  @Get('audits')
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'listAudits',
    summary: 'List audits',
    description: `The workspace's audits, newest first; \`status\` keeps one status. ${PAGED}`,
  })
  @ApiOkResponse({ type: AuditPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Access() access: AccessRecord, @Query() query: AuditListQuery): Promise<Page<Audit>> {
    return this.register.call(RegisterRpc.auditsList, access, { query });
  }

  @Post('audits')
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'createAudit',
    summary: 'Start an audit',
    description:
      'Exactly one scope: `location_id` (with `include_children`: the places under it too), ' +
      '`category_id`, or `asset_ids`. Answers the audit in status `starting`; a background ' +
      'job then fixes its expected set (the scope’s assets at that moment, with where each ' +
      'is) and opens it, firing `audit.started` (milliseconds for a small audit; poll ' +
      '`GET /audits/{id}`). An unknown location, category or asset: 400 naming the field.',
  })
  @ApiCreatedResponse({ type: Audit, description: 'Created, starting.' })
  @ApiErrors(400, 422)
  create(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CreateAuditInput,
  ): Promise<Audit> {
    return this.register.call(RegisterRpc.auditsCreate, access, { body }, identity);
  }

  @Get('audits/:id')
  @RequiresScope('read')
  @ApiIdParam('id', 'audit')
  @ApiOperation({
    operationId: 'getAudit',
    summary: 'Fetch one audit',
    description: 'With its live counts, and `progress` while a background job runs on it.',
  })
  @ApiOkResponse({ type: Audit, description: 'OK.' })
  @ApiErrors(404)
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<Audit> {
    return this.register.call(RegisterRpc.auditsGet, access, { id });
  }

  @Get('audits/:id/scans')
  @RequiresScope('read')
  @ApiIdParam('id', 'audit')
  @ApiOperation({
    operationId: 'listAuditScans',
    summary: 'List an audit’s scans',
    description: `Newest first, one per asset scanned; \`outcome\` keeps one kind (\`found\` includes the misplaced). ${PAGED}`,
  })
  @ApiOkResponse({ type: AuditScanPage, description: 'OK.' })
  @ApiErrors(400, 404)
  scans(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @Query() query: AuditScanListQuery,
  ): Promise<Page<AuditScan>> {
    return this.register.call(RegisterRpc.auditsScans, access, { id, query });
  }

  @Post('audits/:id/scans')
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiIdParam('id', 'audit')
  @ApiOperation({
    operationId: 'scanIntoAudit',
    summary: 'Record a scan in an audit',
    description:
      'Exactly one of `asset_tag`, `serial_number`, `asset_id`; `location_id` where the ' +
      'scanner is (the audited place or one under it; default the audit’s location). The ' +
      'outcome: `found` (expected), `misplaced` (expected, scanned with a `location_id` other ' +
      'than where it was at start) or `unexpected`. The asset is marked scanned as a console ' +
      'scan does (`last_scanned_at`, `asset.scanned`). The same asset again: 200 with the ' +
      'first scan and `repeated: true`, nothing recorded. The audit not `open`: 409. An ' +
      'unknown tag, serial number or id: 404 naming the field.',
  })
  @ApiCreatedResponse({ type: AuditScan, description: 'Recorded.' })
  @ApiOkResponse({ type: AuditScan, description: 'Scanned before in this audit: that scan.' })
  @ApiErrors(400, 404, 409, 422)
  async scan(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: AuditScanInput,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuditScan> {
    const scan = await this.register.call(RegisterRpc.auditsScan, access, { id, body }, identity);
    if (scan.repeated) void reply.status(200);
    return scan;
  }

  @Get('audits/:id/items')
  @RequiresScope('read')
  @ApiIdParam('id', 'audit')
  @ApiOperation({
    operationId: 'listAuditItems',
    summary: 'List an audit’s assets by state',
    description: `\`state\`: expected (default), found, missing, unexpected or misplaced; by asset id. ${PAGED}`,
  })
  @ApiOkResponse({ type: AuditItemPage, description: 'OK.' })
  @ApiErrors(400, 404)
  items(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @Query() query: AuditItemListQuery,
  ): Promise<Page<AuditItem>> {
    return this.register.call(RegisterRpc.auditsItems, access, { id, query });
  }

  @Post('audits/:id/complete')
  @AcceptsIdempotencyKey()
  @HttpCode(202)
  @RequiresScope('write')
  @ApiIdParam('id', 'audit')
  @ApiOperation({
    operationId: 'completeAudit',
    summary: 'Complete an audit',
    description:
      'Answers the audit in status `completing` with its `progress`; a background job then ' +
      'fires one `audit.item_missing` per expected asset not found, moves the found ones to ' +
      'where they were scanned (`move_found`) and sets the missing ones `lost` ' +
      '(`mark_missing_lost`), each with `asset.updated`, and ends with `audit.completed`. ' +
      'An audit not `open`: 409.',
  })
  @ApiAcceptedResponse({ type: Audit, description: 'Accepted: completing.' })
  @ApiErrors(400, 404, 409, 422)
  complete(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CompleteAuditInput,
  ): Promise<Audit> {
    return this.register.call(RegisterRpc.auditsComplete, access, { id, body }, identity);
  }

  @Post('audits/:id/cancel')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'audit')
  @ApiOperation({
    operationId: 'cancelAudit',
    summary: 'Cancel an audit',
    description:
      'An open or starting audit ends `cancelled`; no event fires for its missing assets. ' +
      'Otherwise 409.',
  })
  @ApiOkResponse({ type: Audit, description: 'Cancelled.' })
  @ApiErrors(404, 409)
  cancel(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
  ): Promise<Audit> {
    return this.register.call(RegisterRpc.auditsCancel, access, { id }, identity);
  }
}
