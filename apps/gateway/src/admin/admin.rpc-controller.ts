import { GatewayAdminPatterns } from '@custodian/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { KeysService } from '../keys/keys.service';
import { WorkspacesService } from '../workspaces/workspaces.service';

/** Console work that the gateway owns, reached over RabbitMQ by the admin CLI. */
@Controller()
export class AdminRpcController {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly keys: KeysService,
  ) {}

  @MessagePattern(GatewayAdminPatterns.workspaceCreate)
  createWorkspace(@Payload() input: unknown) {
    return this.workspaces.create(input);
  }

  @MessagePattern(GatewayAdminPatterns.workspaceGet)
  getWorkspace(@Payload() input: { workspace?: unknown }) {
    return this.workspaces.get(input?.workspace);
  }

  @MessagePattern(GatewayAdminPatterns.workspacePlan)
  changePlan(@Payload() input: unknown) {
    return this.workspaces.changePlan(input);
  }

  @MessagePattern(GatewayAdminPatterns.workspaceLimits)
  changeLimits(@Payload() input: unknown) {
    return this.workspaces.changeLimits(input);
  }

  @MessagePattern(GatewayAdminPatterns.keyCreate)
  createKey(@Payload() input: unknown) {
    return this.keys.create(input);
  }

  @MessagePattern(GatewayAdminPatterns.keyRevoke)
  revokeKey(@Payload() input: unknown) {
    return this.keys.revoke(input);
  }

  @MessagePattern(GatewayAdminPatterns.keyList)
  listKeys(@Payload() input: unknown) {
    return this.keys.list(input);
  }
}
