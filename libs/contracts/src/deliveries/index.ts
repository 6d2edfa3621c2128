export {
  BULK_RESEND_MAX,
  DELIVERY_SEARCH_LIMIT_DEFAULT,
  DELIVERY_STATUSES,
  type DeliveryErrorKind,
  type DeliveryStatus,
} from './delivery.constants';
export * from './delivery.inputs';
export { DeliveriesResendMessage, DeliverySearchMessage } from './delivery.messages';
export * from './delivery.views';
