import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
import { EnumField, TextField } from '../fields/field.decorators';
import { TextLength } from '../fields/text-length';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import {
  CallerMessage,
  ConditionalRecordMessage,
  ListMessage,
  RecordMessage,
  type ListReply,
} from '../rpc/messages';
import { BULK_TIMEOUT_MS, BulkAssetsMessage, type BulkAssetReply } from './asset-bulk';
import { CreateAssetInput, UpdateAssetInput } from './asset.inputs';
import type { AssetDetail, AssetSummary, DeletedAsset, ScannedAsset } from './asset.views';

export class CreateAssetMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreateAssetInput) body!: CreateAssetInput;
}

export class UpdateAssetMessage extends ConditionalRecordMessage {
  @ValidateNested() @Type(() => UpdateAssetInput) body!: UpdateAssetInput;
}

/** A code as a barcode scanner typed it: an asset tag or a serial number. */
export class ScanAssetMessage extends CallerMessage {
  @TextField({ min: 1, max: 200, notBlank: true }) code!: string;
}

/** What PUT /assets/by-serial/{serial} and by-tag/{tag} find an asset by. */
export const ASSET_UPSERT_KEYS = ['serial_number', 'asset_tag'] as const;
export type AssetUpsertKey = (typeof ASSET_UPSERT_KEYS)[number];

/**
 * An upsert by the client's own identifier: the asset whose `by` is exactly `key` is changed
 * as a PATCH would change it, or, with none, one is created as a POST would create it (with
 * `key` as its `by`). `if_match`: update only that version (412 when none exists);
 * `create_only` (If-None-Match: *): create only (412 when one exists).
 */
export class UpsertAssetMessage extends CallerMessage {
  @EnumField(ASSET_UPSERT_KEYS) by!: AssetUpsertKey;
  @TextField({ min: 1, max: 200 }) key!: string;
  @ValidateNested() @Type(() => UpdateAssetInput) body!: UpdateAssetInput;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @TextLength(1, 110, { each: true })
  if_match?: string[];
  @IsOptional() @IsBoolean() create_only?: boolean;
}

/** What an upsert did: `created` (201) or changed (200), and the asset after it. */
export interface UpsertedAsset {
  created: boolean;
  asset: AssetDetail;
}

/** The assets of the register's API queue (RegisterRpc). */
export const ASSET_RPC = {
  assetsList: rpc('assets.list', ListMessage, reply<ListReply<AssetSummary>>(), LIST),
  assetsGet: rpc('assets.get', RecordMessage, reply<AssetDetail>(), READ),
  assetsCreate: rpc('assets.create', CreateAssetMessage, reply<AssetDetail>()),
  assetsUpdate: rpc('assets.update', UpdateAssetMessage, reply<AssetDetail>()),
  /** Soft delete (the console's): refused while the asset is checked out. */
  assetsDelete: rpc('assets.delete', ConditionalRecordMessage, reply<DeletedAsset>()),
  assetsRestore: rpc('assets.restore', RecordMessage, reply<AssetDetail>()),
  /** The workspace's deleted assets, most recently deleted first (DELETED_ASSETS_SHOWN). */
  assetsDeleted: rpc('assets.deleted', CallerMessage, reply<DeletedAsset[]>(), READ),
  assetsScan: rpc('assets.scan', ScanAssetMessage, reply<ScannedAsset>()),
  assetsUpsert: rpc('assets.upsert', UpsertAssetMessage, reply<UpsertedAsset>()),
  /**
   * One change to up to 1,000 assets, in chunks of a transaction each: on the heavy lane
   * (its cost grows with the ids), and waited for longer than one record's write.
   */
  assetsBulk: rpc('assets.bulk', BulkAssetsMessage, reply<BulkAssetReply>(), {
    heavy: true,
    timeoutMs: BULK_TIMEOUT_MS,
  }),
};
