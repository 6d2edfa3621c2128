import {
  BulkAssetsMessage,
  CallerMessage,
  CreateAssetMessage,
  ListMessage,
  ConditionalRecordMessage,
  RecordMessage,
  UpsertAssetMessage,
  RegisterRpc,
  ScanAssetMessage,
  UpdateAssetMessage,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { parseAssetListQuery } from './asset-list-query';
import { AssetBin } from './asset-bin';
import { AssetBulk } from './asset-bulk';
import { AssetScanner } from './asset-scanner';
import { AssetUpserts } from './asset-upsert';
import { AssetsService } from './assets.service';

@Controller()
export class AssetsRpcController {
  constructor(
    private readonly assets: AssetsService,
    private readonly bin: AssetBin,
    private readonly scanner: AssetScanner,
    private readonly upserts: AssetUpserts,
    private readonly bulk: AssetBulk,
  ) {}

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
    return this.assets.update(message.caller, message.id, message.body, message.if_match);
  }

  @Handles(RegisterRpc.assetsDelete, REGISTER_RPC_TRANSPORT)
  delete(@Payload() message: ConditionalRecordMessage) {
    return this.bin.delete(message.caller, message.id, message.if_match);
  }

  @Handles(RegisterRpc.assetsRestore, REGISTER_RPC_TRANSPORT)
  restore(@Payload() message: RecordMessage) {
    return this.bin.restore(message.caller, message.id);
  }

  @Handles(RegisterRpc.assetsDeleted, REGISTER_RPC_TRANSPORT)
  deleted(@Payload() message: CallerMessage) {
    return this.bin.listDeleted(message.caller);
  }

  @Handles(RegisterRpc.assetsScan, REGISTER_RPC_TRANSPORT)
  scan(@Payload() message: ScanAssetMessage) {
    return this.scanner.scan(message.caller, message.code);
  }

  @Handles(RegisterRpc.assetsUpsert, REGISTER_RPC_TRANSPORT)
  upsert(@Payload() message: UpsertAssetMessage) {
    return this.upserts.upsert(message.caller, message);
  }

  @Handles(RegisterRpc.assetsBulk, REGISTER_RPC_TRANSPORT)
  bulkChange(@Payload() message: BulkAssetsMessage) {
    return this.bulk.apply(message.caller, message.body);
  }
}
