import {
  ApproveAssetRequestInput,
  AssetRequest,
  AssetRequestListQuery,
  AssetRequestPage,
  CreateAssetRequestInput,
  RegisterRpc,
  RejectAssetRequestInput,
  type Page,
} from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors, ApiIdParam } from '../http/api-docs.decorators';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { RegisterClient } from '../register-client/register-client';

/** HTTP face of the register's asset requests; the rules live there. */
@ApiTags('Requests')
@Controller('requests')
export class AssetRequestsController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'listRequests',
    summary: 'List asset requests',
    description:
      'Paged, newest first; `status=pending` is the inbox. The filters are exact; `asset_id` ' +
      'matches the asset asked for or the one given.',
  })
  @ApiOkResponse({ type: AssetRequestPage, description: 'OK.' })
  @ApiErrors(400)
  list(
    @Access() access: AccessRecord,
    @Query() query: AssetRequestListQuery,
  ): Promise<Page<AssetRequest>> {
    return this.register.call(RegisterRpc.requestsList, access, { query });
  }

  @Post()
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'createRequest',
    summary: 'Ask for an asset',
    description:
      'For a person: a given asset (`asset_id`) or any asset of a category (`category`, by ' +
      'name; never created by a request), exactly one; for now, or for a range (`starts_at` ' +
      'and `ends_at` together, the end in the future). An asset not found, retired, lost or ' +
      'stolen, an unknown category and an inactive person are a 400 naming the field. Fires ' +
      '`request.created`; the request is `pending` until approved or rejected.',
  })
  @ApiCreatedResponse({ type: AssetRequest, description: 'Created: the request, pending.' })
  @ApiErrors(400, 422)
  create(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CreateAssetRequestInput,
  ): Promise<AssetRequest> {
    return this.register.call(RegisterRpc.requestsCreate, access, { body }, identity);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiIdParam('id', 'request')
  @ApiOperation({ operationId: 'getRequest', summary: 'Fetch one asset request' })
  @ApiOkResponse({ type: AssetRequest, description: 'OK.' })
  @ApiErrors(404)
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<AssetRequest> {
    return this.register.call(RegisterRpc.requestsGet, access, { id });
  }

  @Post(':id/approve')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'request')
  @ApiOperation({
    operationId: 'approveRequest',
    summary: 'Approve a request: check the asset out, or book it',
    description:
      'With the asset given (the one asked for when left out; required, and of the category, ' +
      'for a request by category) and how: `fulfil_by: check_out` hands it out now (due back ' +
      'at `due_at`, or the request’s end), `booking` books it for the request’s range (or ' +
      '`starts_at`/`ends_at`), confirmed at once and the asker’s own to change or cancel. One ' +
      'transaction: fires `request.approved`, then what a PATCH /assets/{id} check-out ' +
      '(`asset.updated`, `assignment.checked_out`) or a POST /bookings (`booking.created`, ' +
      '`booking.confirmed`) fires. When the asset is checked out, booked, or a booking ' +
      'overlaps, nothing is written: a 409 naming the conflict, and the request stays ' +
      '`pending`. A request no longer pending is a 409.',
  })
  @ApiOkResponse({ type: AssetRequest, description: 'OK: the request, approved.' })
  @ApiErrors(400, 404, 409, 422)
  approve(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: ApproveAssetRequestInput,
  ): Promise<AssetRequest> {
    return this.register.call(RegisterRpc.requestsApprove, access, { id, body }, identity);
  }

  @Post(':id/reject')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'request')
  @ApiOperation({
    operationId: 'rejectRequest',
    summary: 'Reject a request',
    description:
      '`note` (required) says why; the asker reads it in `decision.note`. Fires ' +
      '`request.rejected`. A request no longer pending is a 409.',
  })
  @ApiOkResponse({ type: AssetRequest, description: 'OK: the request, rejected.' })
  @ApiErrors(400, 404, 409, 422)
  reject(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: RejectAssetRequestInput,
  ): Promise<AssetRequest> {
    return this.register.call(RegisterRpc.requestsReject, access, { id, body }, identity);
  }
}
