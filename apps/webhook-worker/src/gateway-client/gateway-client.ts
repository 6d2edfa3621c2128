import { GatewayAdminRpc, type WorkspaceView } from '@custodian/contracts';
import { RpcClient, RpcPeer } from '@custodian/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { WorkerConfig } from '../config/worker-config';

/**
 * The worker's way to the gateway's admin queue. The gateway owns workspaces and plans;
 * webhooks need a plan with API access (Pro and above).
 */
@Injectable()
export class GatewayClient extends RpcPeer {
  private readonly apiAccessCache = new Map<string, { value: boolean; until: number }>();

  constructor(
    client: RpcClient,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
  ) {
    super(client, {
      queue: config.GATEWAY_ADMIN_QUEUE,
      timeoutMs: config.GATEWAY_TIMEOUT_MS,
      serviceName: 'gateway',
    });
  }

  /** The workspace with its plan; `not_found` if there is none. */
  workspace(workspaceId: string): Promise<WorkspaceView> {
    return this.send(GatewayAdminRpc.workspaceGet, { workspace: workspaceId });
  }

  /** Whether the workspace's plan includes API access and webhooks, cached for PLAN_CACHE_MS. */
  async apiAccess(workspaceId: string): Promise<boolean> {
    const cached = this.apiAccessCache.get(workspaceId);
    if (cached && cached.until > Date.now()) return cached.value;
    const value = (await this.workspace(workspaceId)).api_access;
    if (this.apiAccessCache.size > 10_000) this.apiAccessCache.clear();
    this.apiAccessCache.set(workspaceId, { value, until: Date.now() + this.config.PLAN_CACHE_MS });
    return value;
  }
}
