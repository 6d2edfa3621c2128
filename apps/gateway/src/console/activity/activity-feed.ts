import {
  ACTIVITY_OWNERS,
  DomainError,
  RegisterAdminRpc,
  WorkerConsoleRpc,
  roleMay,
  type ActivityEntry,
  type ActivityFilter,
  type ActivityPage,
  type ConsolePermission,
} from '@custodian/contracts';
import { ActivityLog } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RegisterAdminClient } from '../../register-client/register-admin-client';
import { WorkerAdminClient } from '../../worker-client/worker-admin-client';
import type { ConsoleCaller } from '../session/console-request';
import { mergeNewestFirst } from './activity-query';

type Owner = keyof typeof ACTIVITY_OWNERS;

/** What a role must be allowed to see to read an app's entries. */
const NEEDS: Record<Owner, ConsolePermission> = {
  register: 'assets.view',
  gateway: 'keys.view',
  worker: 'webhooks.view',
};

/**
 * The workspace's activity feed: each app keeps the entries of the records it owns (written
 * in the transaction of the change), and a page is the newest of the three apps' pages. A
 * role sees the entries of the records it may see: every role the register's, owners, admins
 * and managers the keys', and so on.
 */
@Injectable()
export class ActivityFeed {
  constructor(
    private readonly db: DataSource,
    private readonly activity: ActivityLog,
    private readonly register: RegisterAdminClient,
    private readonly worker: WorkerAdminClient,
  ) {}

  async page(caller: ConsoleCaller, filter: ActivityFilter): Promise<ActivityPage> {
    const owners = this.ownersFor(caller, filter);
    const message = { workspace: caller.workspaceId, filter };
    const pages = await Promise.all(
      owners.map((owner): Promise<ActivityEntry[]> => {
        if (owner === 'register') return this.register.call(RegisterAdminRpc.activityList, message);
        if (owner === 'worker') return this.worker.call(WorkerConsoleRpc.activityList, message);
        return this.activity.page(this.db.manager, caller.workspaceId, filter);
      }),
    );
    return mergeNewestFirst(pages, filter.limit);
  }

  private ownersFor(caller: ConsoleCaller, filter: ActivityFilter): Owner[] {
    const owners = (Object.keys(ACTIVITY_OWNERS) as Owner[]).filter((owner) =>
      roleMay(caller.role, NEEDS[owner]),
    );
    const type = filter.record_type;
    if (type === undefined) return owners;
    const owner = owners.find((each) =>
      (ACTIVITY_OWNERS[each] as readonly string[]).includes(type),
    );
    if (!owner) {
      throw new DomainError('forbidden', `Your role (${caller.role}) may not see ${type} activity`);
    }
    return [owner];
  }
}
