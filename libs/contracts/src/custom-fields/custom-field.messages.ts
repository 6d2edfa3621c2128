import { reply, rpc } from '../rpc/contract';
import { WorkspaceRefInput } from '../workspaces/workspace.inputs';
import { CreateCustomFieldInput } from './custom-field.inputs';
import type { CustomFieldView } from './custom-field.views';

/** The custom fields of the register's admin queue (RegisterAdminRpc). */
export const CUSTOM_FIELD_ADMIN_RPC = {
  customFieldCreate: rpc(
    'admin.customfield.create',
    CreateCustomFieldInput,
    reply<CustomFieldView>(),
  ),
  /** The workspace's custom fields, oldest first (the console's asset form). */
  customFieldList: rpc('admin.customfield.list', WorkspaceRefInput, reply<CustomFieldView[]>()),
};
