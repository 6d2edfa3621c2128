import { RegisterAdminRpc, roleMay, type KeyUsage, type PlanUsage } from '@custodian/contracts';
import { Injectable } from '@nestjs/common';
import { KeysService } from '../../keys/keys.service';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import { RequestCounts } from '../../limits/request-counts';
import { RegisterAdminClient } from '../../register-client/register-admin-client';
import type { ConsoleCaller } from '../session/console-request';
import { usageReport } from './usage-report';

/**
 * The console's Plan and usage, gathered from where each part lives: the plan and its
 * effective limits (gateway), the assets, people and seats used (the register, over its admin
 * queue), and the keys' requests (the access gate's own counters).
 */
@Injectable()
export class WorkspaceUsage {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly keys: KeysService,
    private readonly counts: RequestCounts,
    private readonly register: RegisterAdminClient,
  ) {}

  async read(caller: ConsoleCaller): Promise<PlanUsage> {
    const workspace = caller.workspaceId;
    const [view, counts, keys] = await Promise.all([
      this.workspaces.get(workspace),
      this.register.call(RegisterAdminRpc.workspaceUsage, { workspace }),
      this.keys.listWithUse(workspace),
    ]);
    const nowMs = Date.now();
    const requests = await this.counts.of(
      keys.map((key) => key.id),
      nowMs,
    );
    const keyUsage = keys.map((key): KeyUsage => ({
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      revoked: key.revoked_at !== null,
      month_requests: requests.get(key.id)?.month ?? 0,
      minute_requests: requests.get(key.id)?.minute ?? null,
    }));
    return usageReport({
      plan: view.plan,
      apiAccess: view.api_access,
      limits: view.limits,
      counts,
      keys: keyUsage,
      keysShown: roleMay(caller.role, 'keys.view'),
      nowMs,
    });
  }
}
