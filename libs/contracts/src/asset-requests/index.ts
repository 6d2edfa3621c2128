export * from './asset-request.constants';
export * from './asset-request.inputs';
export {
  ApproveAssetRequestMessage,
  AssetRequestListMessage,
  CreateAssetRequestMessage,
  RejectAssetRequestMessage,
} from './asset-request.messages';
export * from './asset-request.views';
