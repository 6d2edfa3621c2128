export * from './asset-bulk';
export * from './asset.constants';
export * from './asset.events';
export * from './asset.inputs';
export { CreateAssetMessage, ScanAssetMessage, UpdateAssetMessage } from './asset.messages';
export * from './asset.views';
