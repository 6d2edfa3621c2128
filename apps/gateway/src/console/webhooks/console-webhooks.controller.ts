import {
  ConsoleEndpoint,
  CreateEndpointBody,
  CreatedConsoleEndpoint,
  RotateSecretBody,
  SigningSecret,
  TestPing,
  UpdateEndpointBody,
  WorkerConsoleRpc,
} from '@custodian/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../../http/api-docs.decorators';
import { WorkerAdminClient } from '../../worker-client/worker-admin-client';
import { Caller, ConsoleAccess, WithoutIdempotencyKey } from '../session/console-access';
import { RecentSignIn } from '../sign-in/recent-sign-in';
import { PerRecordLimit } from '../session/console-write-limits';
import type { ConsoleCaller } from '../session/console-request';

/**
 * Webhook endpoints of the session's workspace. The webhook-worker owns them and checks every
 * id against the workspace the gateway sends, so an id of another workspace is not found.
 */
@ApiTags('Webhooks')
@Controller('console/api/webhooks')
export class ConsoleWebhooksController {
  constructor(private readonly worker: WorkerAdminClient) {}

  @Get()
  @ConsoleAccess('webhooks.view')
  @ApiOperation({ operationId: 'listEndpoints', summary: 'Webhook endpoints, with their health' })
  @ApiOkResponse({ type: [ConsoleEndpoint], description: 'OK.' })
  list(@Caller() caller: ConsoleCaller): Promise<ConsoleEndpoint[]> {
    return this.worker.call(WorkerConsoleRpc.endpointList, { workspace: caller.workspaceId });
  }

  @Post()
  @ConsoleAccess('webhooks.manage')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createEndpoint',
    summary: 'Add an endpoint',
    description:
      'Needs the Pro plan or above. The signing secret comes with the answer. A workspace ' +
      "has at most its plan's number of endpoints (pro 10, business 25, enterprise 100: 403 " +
      'past it) and one endpoint per URL (409 names the one that has it).',
  })
  @ApiCreatedResponse({ type: CreatedConsoleEndpoint, description: 'Created.' })
  @ApiErrors(403, 409)
  create(
    @Body() body: CreateEndpointBody,
    @Caller() caller: ConsoleCaller,
  ): Promise<CreatedConsoleEndpoint> {
    return this.worker.call(
      WorkerConsoleRpc.endpointCreate,
      {
        ...body,
        workspace: caller.workspaceId,
        actor: { id: caller.memberId, email: caller.email },
      },
      caller.identity,
    );
  }

  @Get(':id')
  @ConsoleAccess('webhooks.view')
  @ApiOperation({ operationId: 'getEndpoint', summary: 'One endpoint' })
  @ApiOkResponse({ type: ConsoleEndpoint, description: 'OK.' })
  @ApiErrors(404)
  get(@Param('id') id: string, @Caller() caller: ConsoleCaller): Promise<ConsoleEndpoint> {
    return this.worker.call(WorkerConsoleRpc.endpointGet, { workspace: caller.workspaceId, id });
  }

  @Patch(':id')
  @ConsoleAccess('webhooks.manage')
  @ApiOperation({
    operationId: 'updateEndpoint',
    summary: 'Edit, enable or disable an endpoint',
    description: 'What is left out stays as it is.',
  })
  @ApiOkResponse({ type: ConsoleEndpoint, description: 'OK.' })
  @ApiErrors(404)
  update(
    @Param('id') id: string,
    @Body() body: UpdateEndpointBody,
    @Caller() caller: ConsoleCaller,
  ): Promise<ConsoleEndpoint> {
    return this.worker.call(
      WorkerConsoleRpc.endpointUpdate,
      {
        ...body,
        workspace: caller.workspaceId,
        actor: { id: caller.memberId, email: caller.email },
        id,
      },
      caller.identity,
    );
  }

  @Delete(':id')
  @ConsoleAccess('webhooks.manage')
  @ApiOperation({
    operationId: 'deleteEndpoint',
    summary: 'Delete an endpoint',
    description:
      'For good: its delivery log goes with it, and nothing more is sent to it (an attempt ' +
      "already in flight still arrives). Frees its place in the plan's endpoint limit.",
  })
  @ApiOkResponse({ type: ConsoleEndpoint, description: 'The endpoint as it was.' })
  @ApiErrors(404)
  delete(@Param('id') id: string, @Caller() caller: ConsoleCaller): Promise<ConsoleEndpoint> {
    return this.worker.call(
      WorkerConsoleRpc.endpointDelete,
      {
        workspace: caller.workspaceId,
        actor: { id: caller.memberId, email: caller.email },
        id,
      },
      caller.identity,
    );
  }

  @WithoutIdempotencyKey('it changes nothing')
  @Post(':id/secret/reveal')
  @RecentSignIn()
  @ConsoleAccess('webhooks.secrets')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'revealSecret',
    summary: 'Show the signing secret',
    description: 'A POST, so that it takes the CSRF token and no cache keeps it.',
  })
  @ApiOkResponse({ type: SigningSecret, description: 'OK.' })
  @ApiErrors(404)
  reveal(@Param('id') id: string, @Caller() caller: ConsoleCaller): Promise<SigningSecret> {
    return this.worker.call(WorkerConsoleRpc.secretReveal, { workspace: caller.workspaceId, id });
  }

  @Post(':id/secret/rotate')
  @RecentSignIn()
  @ConsoleAccess('webhooks.secrets')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateSecret',
    summary: 'Rotate the signing secret',
    description:
      'A new secret signs from now on; for `overlap_hours` deliveries also carry a signature ' +
      'with the previous one, so receivers can switch without losing a delivery.',
  })
  @ApiOkResponse({ type: SigningSecret, description: 'Rotated.' })
  @ApiErrors(404)
  rotate(
    @Param('id') id: string,
    @Body() body: RotateSecretBody,
    @Caller() caller: ConsoleCaller,
  ): Promise<SigningSecret> {
    return this.worker.call(
      WorkerConsoleRpc.secretRotate,
      {
        ...body,
        workspace: caller.workspaceId,
        actor: { id: caller.memberId, email: caller.email },
        id,
      },
      caller.identity,
    );
  }

  @WithoutIdempotencyKey('each call sends one more ping, limited per endpoint')
  @PerRecordLimit('test ping')
  @Post(':id/test')
  @ConsoleAccess('webhooks.manage')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'testEndpoint',
    summary: 'Send a test ping',
    description:
      'A `ping` event through the live delivery path: signing, retries, timeout and the log. ' +
      'Sent even to a disabled endpoint; when it is delivered, an automatically disabled ' +
      'endpoint is enabled again.',
  })
  @ApiAcceptedResponse({ type: TestPing, description: 'Queued for delivery.' })
  @ApiErrors(404)
  test(@Param('id') id: string, @Caller() caller: ConsoleCaller): Promise<TestPing> {
    return this.worker.call(WorkerConsoleRpc.endpointTest, { workspace: caller.workspaceId, id });
  }
}
