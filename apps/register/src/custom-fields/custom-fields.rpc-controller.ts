import { CreateCustomFieldInput, RegisterAdminRpc } from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_ADMIN_TRANSPORT } from '../rpc/transports';
import { CustomFieldsService } from './custom-fields.service';

/** `customfield create` on the register's admin queue. */
@Controller()
export class CustomFieldsAdminController {
  constructor(private readonly customFields: CustomFieldsService) {}

  @Handles(RegisterAdminRpc.customFieldCreate, REGISTER_ADMIN_TRANSPORT)
  create(@Payload() input: CreateCustomFieldInput) {
    return this.customFields.create(input);
  }
}
