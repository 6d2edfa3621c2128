import {
  ChangeLimitsInput,
  ChangePlanInput,
  CreateKeyInput,
  CreateWorkspaceInput,
  GatewayAdminRpc,
  RevokeKeyInput,
  WorkspaceRefInput,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { KeysService } from '../keys/keys.service';
import { WorkspacesService } from '../workspaces/workspaces.service';

/** Console work that the gateway owns, reached over RabbitMQ by the admin CLI (not HTTP). */
@ApiExcludeController()
@Controller()
export class AdminRpcController {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly keys: KeysService,
  ) {}

  @Handles(GatewayAdminRpc.workspaceCreate)
  createWorkspace(@Payload() input: CreateWorkspaceInput) {
    return this.workspaces.create(input);
  }

  @Handles(GatewayAdminRpc.workspaceGet)
  getWorkspace(@Payload() input: WorkspaceRefInput) {
    return this.workspaces.get(input.workspace);
  }

  @Handles(GatewayAdminRpc.workspacePlan)
  changePlan(@Payload() input: ChangePlanInput) {
    return this.workspaces.changePlan(input);
  }

  @Handles(GatewayAdminRpc.workspaceLimits)
  changeLimits(@Payload() input: ChangeLimitsInput) {
    return this.workspaces.changeLimits(input);
  }

  @Handles(GatewayAdminRpc.keyCreate)
  createKey(@Payload() input: CreateKeyInput) {
    return this.keys.create(input);
  }

  @Handles(GatewayAdminRpc.keyRevoke)
  revokeKey(@Payload() input: RevokeKeyInput) {
    return this.keys.revoke(input);
  }

  @Handles(GatewayAdminRpc.keyList)
  listKeys(@Payload() input: WorkspaceRefInput) {
    return this.keys.list(input);
  }
}
