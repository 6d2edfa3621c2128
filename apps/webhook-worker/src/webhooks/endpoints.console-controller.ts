import {
  ActivityListMessage,
  ConsoleEndpointCreateMessage,
  ConsoleEndpointDeleteMessage,
  ConsoleEndpointUpdateMessage,
  ConsoleRecordMessage,
  ConsoleSecretRotateMessage,
  ConsoleWorkspaceMessage,
  WorkerConsoleRpc,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { EndpointsService } from './endpoints.service';
import { SigningSecretService } from './signing-secret.service';

/** The console's webhook endpoints, forwarded by the gateway with the member's workspace. */
@Controller()
export class EndpointsConsoleController {
  constructor(
    private readonly endpoints: EndpointsService,
    private readonly secrets: SigningSecretService,
    private readonly db: DataSource,
    private readonly activity: ActivityLog,
  ) {}

  /** The worker's part of the console's activity feed: webhook endpoints. */
  @Handles(WorkerConsoleRpc.activityList)
  activityList(@Payload() input: ActivityListMessage) {
    return this.activity.page(this.db.manager, input.workspace, input.filter);
  }

  @Handles(WorkerConsoleRpc.endpointList)
  list(@Payload() input: ConsoleWorkspaceMessage) {
    return this.endpoints.consoleList(input.workspace);
  }

  @Handles(WorkerConsoleRpc.endpointGet)
  get(@Payload() input: ConsoleRecordMessage) {
    return this.endpoints.get(input.workspace, input.id);
  }

  @Handles(WorkerConsoleRpc.endpointCreate)
  create(@Payload() input: ConsoleEndpointCreateMessage) {
    return this.endpoints.create(input);
  }

  @Handles(WorkerConsoleRpc.endpointUpdate)
  update(@Payload() input: ConsoleEndpointUpdateMessage) {
    return this.endpoints.update(input);
  }

  /** The endpoint as the console showed it, before it went. */
  @Handles(WorkerConsoleRpc.endpointDelete)
  delete(@Payload() input: ConsoleEndpointDeleteMessage) {
    return this.endpoints.deleteFromConsole(input.id, input.workspace, input.actor);
  }

  @Handles(WorkerConsoleRpc.secretReveal)
  reveal(@Payload() input: ConsoleRecordMessage) {
    return this.secrets.reveal(input.workspace, input.id);
  }

  @Handles(WorkerConsoleRpc.secretRotate)
  rotate(@Payload() input: ConsoleSecretRotateMessage) {
    return this.secrets.rotate(input.workspace, input.id, input.overlap_hours, input.actor);
  }
}
