export * from './booking.constants';
export * from './booking.inputs';
export {
  AvailabilityMessage,
  BookingListMessage,
  CancelBookingMessage,
  CheckInBookingMessage,
  CreateBookingMessage,
} from './booking.messages';
export * from './booking.views';
