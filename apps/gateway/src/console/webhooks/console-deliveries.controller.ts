import {
  DELIVERY_STATUSES,
  DeliveriesResent,
  DeliveryDetail,
  DeliveryLogPage,
  DeliverySummary,
  ResendDeliveriesBody,
  WorkerConsoleRpc,
  type RawQuery,
} from '@custodian/contracts';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../../http/api-docs.decorators';
import { WorkerAdminClient } from '../../worker-client/worker-admin-client';
import { Caller, ConsoleAccess } from '../session/console-access';
import { PerRecordLimit } from '../session/console-write-limits';
import type { ConsoleCaller } from '../session/console-request';

const FILTERS = ['endpoint', 'event', 'status', 'from', 'to', 'before', 'limit'] as const;

/** The delivery log of the session's workspace, kept by the webhook-worker. */
@ApiTags('Delivery log')
@Controller('console/api/deliveries')
export class ConsoleDeliveriesController {
  constructor(private readonly worker: WorkerAdminClient) {}

  @Get()
  @ConsoleAccess('webhooks.view')
  @ApiOperation({ operationId: 'searchDeliveries', summary: 'Deliveries, newest first' })
  @ApiQuery({ name: 'endpoint', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'event', required: false, schema: { type: 'string' } })
  @ApiQuery({
    name: 'status',
    required: false,
    schema: { type: 'string', enum: [...DELIVERY_STATUSES] },
  })
  @ApiQuery({ name: 'from', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiQuery({ name: 'to', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiQuery({ name: 'before', required: false, schema: { type: 'string' } })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  })
  @ApiOkResponse({ type: DeliveryLogPage, description: 'OK.' })
  @ApiErrors(400, 404)
  search(@Query() query: RawQuery, @Caller() caller: ConsoleCaller): Promise<DeliveryLogPage> {
    return this.worker.call(WorkerConsoleRpc.deliverySearch, {
      ...filtersOf(query),
      workspace: caller.workspaceId,
    });
  }

  @Post('resend')
  @ConsoleAccess('webhooks.manage')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'resendFailedDeliveries',
    summary: 'Resend every failed delivery that matches',
    description:
      'Each becomes a new chain of up to 3 attempts under its delivery id; 1000 at most.',
  })
  @ApiAcceptedResponse({ type: DeliveriesResent, description: 'Queued.' })
  @ApiErrors(404)
  resendMany(
    @Body() body: ResendDeliveriesBody,
    @Caller() caller: ConsoleCaller,
  ): Promise<DeliveriesResent> {
    return this.worker.call(
      WorkerConsoleRpc.deliveriesResend,
      {
        ...body,
        workspace: caller.workspaceId,
      },
      caller.identity,
    );
  }

  @Get(':id')
  @ConsoleAccess('webhooks.view')
  @ApiOperation({ operationId: 'getDelivery', summary: 'A delivery and every attempt of it' })
  @ApiOkResponse({ type: DeliveryDetail, description: 'OK.' })
  @ApiErrors(404)
  get(@Param('id') id: string, @Caller() caller: ConsoleCaller): Promise<DeliveryDetail> {
    return this.worker.call(WorkerConsoleRpc.deliveryGet, { workspace: caller.workspaceId, id });
  }

  @PerRecordLimit('resend')
  @Post(':id/resend')
  @ConsoleAccess('webhooks.manage')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'resendDelivery',
    summary: 'Resend a delivery',
    description: 'A new chain of up to 3 attempts under the same delivery id, logged as such.',
  })
  @ApiAcceptedResponse({ type: DeliverySummary, description: 'Queued.' })
  @ApiErrors(404, 409)
  resend(@Param('id') id: string, @Caller() caller: ConsoleCaller): Promise<DeliverySummary> {
    return this.worker.call(
      WorkerConsoleRpc.deliveryResend,
      { workspace: caller.workspaceId, id },
      caller.identity,
    );
  }
}

/**
 * The log's filters as the client sent them (strings), for the worker to check and name. A
 * repeated parameter arrives as a list and is refused there by type.
 */
function filtersOf(query: RawQuery): Record<string, string> {
  return Object.fromEntries(
    FILTERS.filter((name) => query[name] !== undefined).map((name) => [
      name,
      query[name] as string,
    ]),
  );
}
