import { CreateCustomFieldInput, RegisterAdminRpc, WorkspaceRefInput } from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_ADMIN_TRANSPORT } from '../rpc/transports';
import { CustomFieldsService } from './custom-fields.service';

/** Custom-field definitions on the register's admin queue: the CLI's create, the console's list. */
@Controller()
export class CustomFieldsAdminController {
  constructor(private readonly customFields: CustomFieldsService) {}

  @Handles(RegisterAdminRpc.customFieldCreate, REGISTER_ADMIN_TRANSPORT)
  create(@Payload() input: CreateCustomFieldInput) {
    return this.customFields.create(input);
  }

  @Handles(RegisterAdminRpc.customFieldList, REGISTER_ADMIN_TRANSPORT)
  list(@Payload() input: WorkspaceRefInput) {
    return this.customFields.list(input.workspace);
  }
}
