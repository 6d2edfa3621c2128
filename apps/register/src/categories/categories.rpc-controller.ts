import {
  ConditionalRecordMessage,
  CreateCategoryMessage,
  CategoryListMessage,
  RecordMessage,
  RegisterRpc,
  UpdateCategoryMessage,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { CategoriesService } from './categories.service';

@Controller()
export class CategoriesRpcController {
  constructor(private readonly categories: CategoriesService) {}

  @Handles(RegisterRpc.categoriesList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: CategoryListMessage) {
    return this.categories.list(message.caller, message.query);
  }

  @Handles(RegisterRpc.categoriesGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: RecordMessage) {
    return this.categories.get(message.caller, message.id);
  }

  @Handles(RegisterRpc.categoriesCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() message: CreateCategoryMessage) {
    return this.categories.create(message.caller, message.body);
  }

  @Handles(RegisterRpc.categoriesUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() message: UpdateCategoryMessage) {
    return this.categories.update(message.caller, message.id, message.body, message.if_match);
  }

  @Handles(RegisterRpc.categoriesDelete, REGISTER_RPC_TRANSPORT)
  delete(@Payload() message: ConditionalRecordMessage) {
    return this.categories.delete(message.caller, message.id, message.if_match);
  }
}
