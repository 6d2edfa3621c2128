import { RegisterAdminRpc, WorkspaceRefInput } from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { REGISTER_ADMIN_TRANSPORT } from '../rpc/transports';
import { readWorkspaceUsage } from './workspace-counters';

/**
 * The register's counts of a workspace for the console's Plan and usage, on the admin queue:
 * the gateway, which owns the plans, must not read the register's schema itself.
 */
@Controller()
export class UsageRpcController {
  constructor(private readonly db: DataSource) {}

  @Handles(RegisterAdminRpc.workspaceUsage, REGISTER_ADMIN_TRANSPORT)
  usage(@Payload() input: WorkspaceRefInput) {
    return readWorkspaceUsage(this.db, input.workspace);
  }
}
