export * from './location.constants';
export * from './location.fields';
export * from './location.inputs';
export {
  CreateLocationMessage,
  LocationListMessage,
  UpdateLocationMessage,
} from './location.messages';
export * from './location.views';
