export {
  DEFAULT_SECRET_OVERLAP_HOURS,
  MAX_SECRET_OVERLAP_HOURS,
  type DisabledReason,
} from './webhook.constants';
export * from './webhook.events';
export * from './webhook.inputs';
export {
  ConsoleEndpointCreateMessage,
  ConsoleEndpointDeleteMessage,
  ConsoleEndpointUpdateMessage,
  ConsoleSecretRotateMessage,
} from './webhook.messages';
export * from './webhook.views';
export * from './endpoint-health';
