import { reply, rpc } from '../rpc/contract';
import { READ } from '../rpc/message-options';
import { WorkspaceRefInput } from '../workspaces/workspace.inputs';
import type { WorkspaceUsageCounts } from './usage.views';

/** The usage counts of the register's admin queue (RegisterAdminRpc). */
export const USAGE_ADMIN_RPC = {
  /** What the workspace uses of its register limits (the console's Plan and usage). */
  workspaceUsage: rpc(
    'admin.workspace.usage',
    WorkspaceRefInput,
    reply<WorkspaceUsageCounts>(),
    READ,
  ),
};
