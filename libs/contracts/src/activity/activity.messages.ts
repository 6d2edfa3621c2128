import { NestedField, TextField } from '../fields/field.decorators';
import { reply, rpc } from '../rpc/contract';
import { ActivityFilter } from './activity.inputs';
import type { ActivityEntry } from './activity.views';

/** The feed's page asked of one app (its admin or console queue) for one workspace. */
export class ActivityListMessage {
  @TextField({ min: 1, max: 64 }) workspace!: string;
  @NestedField(ActivityFilter) filter!: ActivityFilter;
}

/** The activity feed on the register's admin queue (RegisterAdminRpc). */
export const ACTIVITY_ADMIN_RPC = {
  /** The workspace's activity entries for the register's records (assets, people, members). */
  activityList: rpc('admin.activity.list', ActivityListMessage, reply<ActivityEntry[]>()),
};

/** The activity feed on the worker's admin queue (WorkerConsoleRpc). */
export const ACTIVITY_CONSOLE_RPC = {
  /** The workspace's activity entries for its webhook endpoints. */
  activityList: rpc('console.activity.list', ActivityListMessage, reply<ActivityEntry[]>()),
};
