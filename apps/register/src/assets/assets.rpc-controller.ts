import {
  CreateAssetMessage,
  ListMessage,
  RecordMessage,
  RegisterRpc,
  UpdateAssetMessage,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { parseAssetListQuery } from './asset-list-query';
import { AssetsService } from './assets.service';

@Controller()
export class AssetsRpcController {
  constructor(private readonly assets: AssetsService) {}

  @Handles(RegisterRpc.assetsList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: ListMessage) {
    return this.assets.list(message.caller, parseAssetListQuery(message.query), message.known);
  }

  @Handles(RegisterRpc.assetsGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: RecordMessage) {
    return this.assets.get(message.caller, message.id);
  }

  @Handles(RegisterRpc.assetsCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() message: CreateAssetMessage) {
    return this.assets.create(message.caller, message.body);
  }

  @Handles(RegisterRpc.assetsUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() message: UpdateAssetMessage) {
    return this.assets.update(message.caller, message.id, message.body);
  }
}
