import { reply, rpc } from '../rpc/contract';
import type { MemberView } from '../members/member.views';
import { CreateKeyInput, RevokeKeyInput } from './key.inputs';
import type { CreatedKeyView, KeyView, RevokedKeyView } from './key.views';
import {
  ChangeLimitsInput,
  ChangePlanInput,
  CreateWorkspaceInput,
  WorkspaceRefInput,
} from './workspace.inputs';
import type { WorkspaceView } from './workspace.views';

/** Console work the gateway owns: workspaces, plans and keys (GatewayAdminRpc). */
export const WORKSPACE_ADMIN_RPC = {
  workspaceCreate: rpc(
    'admin.workspace.create',
    CreateWorkspaceInput,
    reply<WorkspaceView & { owner?: MemberView }>(),
  ),
  workspacePlan: rpc('admin.workspace.plan', ChangePlanInput, reply<WorkspaceView>()),
  workspaceLimits: rpc('admin.workspace.limits', ChangeLimitsInput, reply<WorkspaceView>()),
  workspaceGet: rpc('admin.workspace.get', WorkspaceRefInput, reply<WorkspaceView>()),
  keyCreate: rpc('admin.key.create', CreateKeyInput, reply<CreatedKeyView>()),
  keyRevoke: rpc('admin.key.revoke', RevokeKeyInput, reply<RevokedKeyView>()),
  keyList: rpc('admin.key.list', WorkspaceRefInput, reply<KeyView[]>()),
};
