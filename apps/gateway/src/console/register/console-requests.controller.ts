import {
  ASSET_REQUEST_STATUSES,
  ApproveAssetRequestInput,
  AssetRequest,
  AssetRequestListQuery,
  AssetRequestPage,
  CreateAssetRequestInput,
  RegisterRpc,
  RejectAssetRequestInput,
  type Page,
} from '@custodian/contracts';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, ApiIdParam } from '../../http/api-docs.decorators';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';
import { ConsoleRegister } from './console-register';

/**
 * Asset requests for signed-in members: the API's messages. Every member asks and sees their
 * own requests; managers and above see the inbox and decide (the register checks the role on
 * each decision as well, so a demotion a moment ago counts).
 */
@ApiTags('Requests')
@Controller('console/api/requests')
export class ConsoleRequestsController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get()
  @ConsoleAccess('requests.view')
  @ApiOperation({
    operationId: 'listRequests',
    summary: 'A page of asset requests',
    description:
      'Newest first. A member sees the requests they made; managers and above every request ' +
      '(`status=pending` is the inbox).',
  })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1 } })
  @ApiQuery({ name: 'pageSize', required: false, schema: { type: 'integer', minimum: 1 } })
  @ApiQuery({
    name: 'status',
    required: false,
    schema: { type: 'string', enum: [...ASSET_REQUEST_STATUSES] },
  })
  @ApiQuery({ name: 'person_id', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'asset_id', required: false, schema: { type: 'string' } })
  @ApiOkResponse({ type: AssetRequestPage, description: 'OK.' })
  @ApiErrors(400)
  list(
    @Caller() caller: ConsoleCaller,
    @Query() query: AssetRequestListQuery,
  ): Promise<Page<AssetRequest>> {
    return this.register.call(RegisterRpc.requestsList, caller, { query });
  }

  @Post()
  @ConsoleAccess('requests.view')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createRequest',
    summary: 'Ask for an asset',
    description: 'As `POST /api/v1/requests`. Fires `request.created`.',
  })
  @ApiCreatedResponse({ type: AssetRequest, description: 'Created: the request, pending.' })
  @ApiErrors(400)
  create(
    @Caller() caller: ConsoleCaller,
    @Body() body: CreateAssetRequestInput,
  ): Promise<AssetRequest> {
    return this.register.call(RegisterRpc.requestsCreate, caller, { body });
  }

  @Get(':id')
  @ConsoleAccess('requests.view')
  @ApiIdParam('id', 'request')
  @ApiOperation({ operationId: 'getRequest', summary: 'One asset request' })
  @ApiOkResponse({ type: AssetRequest, description: 'OK.' })
  @ApiErrors(404)
  get(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<AssetRequest> {
    return this.register.call(RegisterRpc.requestsGet, caller, { id });
  }

  @Post(':id/approve')
  @ConsoleAccess('requests.decide')
  @HttpCode(200)
  @ApiIdParam('id', 'request')
  @ApiOperation({
    operationId: 'approveRequest',
    summary: 'Approve: check the asset out, or book it',
    description:
      'As `POST /api/v1/requests/{id}/approve`: one transaction with the check-out or the ' +
      'booking; a 409 names what is in the way and leaves the request pending.',
  })
  @ApiOkResponse({ type: AssetRequest, description: 'The request, approved.' })
  @ApiErrors(400, 404, 409)
  approve(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: ApproveAssetRequestInput,
  ): Promise<AssetRequest> {
    return this.register.call(RegisterRpc.requestsApprove, caller, { id, body });
  }

  @Post(':id/reject')
  @ConsoleAccess('requests.decide')
  @HttpCode(200)
  @ApiIdParam('id', 'request')
  @ApiOperation({
    operationId: 'rejectRequest',
    summary: 'Reject, with the reason',
    description: 'As `POST /api/v1/requests/{id}/reject`. Fires `request.rejected`.',
  })
  @ApiOkResponse({ type: AssetRequest, description: 'The request, rejected.' })
  @ApiErrors(400, 404, 409)
  reject(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: RejectAssetRequestInput,
  ): Promise<AssetRequest> {
    return this.register.call(RegisterRpc.requestsReject, caller, { id, body });
  }
}
