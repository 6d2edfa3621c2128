import {
  ApproveAssetRequestMessage,
  AssetRequestListMessage,
  CreateAssetRequestMessage,
  RecordMessage,
  RegisterRpc,
  RejectAssetRequestMessage,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { AssetRequestsService } from './asset-requests.service';

@Controller()
export class AssetRequestsRpcController {
  constructor(private readonly requests: AssetRequestsService) {}

  @Handles(RegisterRpc.requestsList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: AssetRequestListMessage) {
    return this.requests.list(message.caller, message.query);
  }

  @Handles(RegisterRpc.requestsGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: RecordMessage) {
    return this.requests.get(message.caller, message.id);
  }

  @Handles(RegisterRpc.requestsCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() message: CreateAssetRequestMessage) {
    return this.requests.create(message.caller, message.body);
  }

  @Handles(RegisterRpc.requestsApprove, REGISTER_RPC_TRANSPORT)
  approve(@Payload() message: ApproveAssetRequestMessage) {
    return this.requests.approve(message.caller, message.id, message.body);
  }

  @Handles(RegisterRpc.requestsReject, REGISTER_RPC_TRANSPORT)
  reject(@Payload() message: RejectAssetRequestMessage) {
    return this.requests.reject(message.caller, message.id, message.body);
  }
}
