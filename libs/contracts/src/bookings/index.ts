export * from './booking.constants';
export * from './booking.inputs';
export {
  AvailabilityMessage,
  BookingListMessage,
  CancelBookingMessage,
  CheckInBookingMessage,
  CreateBookingMessage,
  RejectBookingMessage,
  UpdateBookingMessage,
  UpdateBookingSettingsMessage,
} from './booking.messages';
export * from './booking.views';
