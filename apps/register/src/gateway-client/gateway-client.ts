import { GatewayAdminRpc, type WorkspaceView } from '@custodian/contracts';
import { RpcClient, RpcPeer } from '@custodian/messaging';
import { Injectable } from '@nestjs/common';
import { RegisterConfig } from '../config/register-config';

/**
 * The register's way to the gateway's admin queue. The gateway owns workspaces and plans; the
 * register asks it for a workspace's plan and effective limits where no API caller brings
 * them (accepting an invitation has no key, so no caller context).
 */
@Injectable()
export class GatewayClient extends RpcPeer {
  constructor(client: RpcClient, config: RegisterConfig) {
    super(client, {
      queue: config.GATEWAY_ADMIN_QUEUE,
      timeoutMs: config.GATEWAY_TIMEOUT_MS,
      serviceName: 'gateway',
    });
  }

  /** The workspace with its plan and effective limits; `not_found` if there is none. */
  workspace(workspaceId: string): Promise<WorkspaceView> {
    return this.send(GatewayAdminRpc.workspaceGet, { workspace: workspaceId });
  }
}
