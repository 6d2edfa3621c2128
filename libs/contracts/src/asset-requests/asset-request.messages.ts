import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import { CallerMessage, RecordMessage } from '../rpc/messages';
import type { Page } from '../shared/paging';
import {
  ApproveAssetRequestInput,
  AssetRequestListQuery,
  CreateAssetRequestInput,
  RejectAssetRequestInput,
} from './asset-request.inputs';
import type { AssetRequest } from './asset-request.views';

export class CreateAssetRequestMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreateAssetRequestInput) body!: CreateAssetRequestInput;
}

export class ApproveAssetRequestMessage extends RecordMessage {
  @ValidateNested() @Type(() => ApproveAssetRequestInput) body!: ApproveAssetRequestInput;
}

export class RejectAssetRequestMessage extends RecordMessage {
  @ValidateNested() @Type(() => RejectAssetRequestInput) body!: RejectAssetRequestInput;
}

export class AssetRequestListMessage extends CallerMessage {
  @ValidateNested() @Type(() => AssetRequestListQuery) query!: AssetRequestListQuery;
}

/** The asset requests of the register's API queue (RegisterRpc). */
export const ASSET_REQUEST_RPC = {
  requestsList: rpc('requests.list', AssetRequestListMessage, reply<Page<AssetRequest>>(), LIST),
  requestsGet: rpc('requests.get', RecordMessage, reply<AssetRequest>(), READ),
  requestsCreate: rpc('requests.create', CreateAssetRequestMessage, reply<AssetRequest>()),
  requestsApprove: rpc('requests.approve', ApproveAssetRequestMessage, reply<AssetRequest>()),
  requestsReject: rpc('requests.reject', RejectAssetRequestMessage, reply<AssetRequest>()),
};
