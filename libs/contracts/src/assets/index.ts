export * from './asset-bulk';
export * from './asset.constants';
export * from './asset.events';
export * from './asset.inputs';
export {
  ASSET_UPSERT_KEYS,
  CreateAssetMessage,
  ScanAssetMessage,
  UpdateAssetMessage,
  UpsertAssetMessage,
  type AssetUpsertKey,
  type UpsertedAsset,
} from './asset.messages';
export * from './asset.views';
