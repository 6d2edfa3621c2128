import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import { CallerMessage, RecordMessage } from '../rpc/messages';
import type { Page } from '../shared/paging';
import {
  AvailabilityQuery,
  BookingListQuery,
  CancelBookingInput,
  CheckInBookingInput,
  CreateBookingInput,
} from './booking.inputs';
import type { AssetAvailability, Booking } from './booking.views';

export class CreateBookingMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreateBookingInput) body!: CreateBookingInput;
}

export class CancelBookingMessage extends RecordMessage {
  @ValidateNested() @Type(() => CancelBookingInput) body!: CancelBookingInput;
}

export class CheckInBookingMessage extends RecordMessage {
  @ValidateNested() @Type(() => CheckInBookingInput) body!: CheckInBookingInput;
}

export class AvailabilityMessage extends RecordMessage {
  @ValidateNested() @Type(() => AvailabilityQuery) query!: AvailabilityQuery;
}

export class BookingListMessage extends CallerMessage {
  @ValidateNested() @Type(() => BookingListQuery) query!: BookingListQuery;
}

/** The bookings of the register's API queue (RegisterRpc). */
export const BOOKING_RPC = {
  bookingsList: rpc('bookings.list', BookingListMessage, reply<Page<Booking>>(), LIST),
  bookingsGet: rpc('bookings.get', RecordMessage, reply<Booking>(), READ),
  bookingsCreate: rpc('bookings.create', CreateBookingMessage, reply<Booking>()),
  bookingsCancel: rpc('bookings.cancel', CancelBookingMessage, reply<Booking>()),
  assetAvailability: rpc(
    'assets.availability',
    AvailabilityMessage,
    reply<AssetAvailability>(),
    LIST,
  ),
  bookingsCheckOut: rpc('bookings.check-out', RecordMessage, reply<Booking>()),
  bookingsCheckIn: rpc('bookings.check-in', CheckInBookingMessage, reply<Booking>()),
};
