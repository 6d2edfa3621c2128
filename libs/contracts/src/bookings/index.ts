export * from './booking.constants';
export * from './booking.inputs';
export {
  BookingListMessage,
  CancelBookingMessage,
  CheckInBookingMessage,
  CreateBookingMessage,
} from './booking.messages';
export * from './booking.views';
