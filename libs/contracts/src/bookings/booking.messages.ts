import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import { CallerMessage, ConditionalRecordMessage, RecordMessage } from '../rpc/messages';
import type { Page } from '../shared/paging';
import {
  AvailabilityQuery,
  BookingListQuery,
  CancelBookingInput,
  CheckInBookingInput,
  CreateBookingInput,
  RejectBookingInput,
  UpdateBookingInput,
  UpdateBookingSettingsInput,
} from './booking.inputs';
import type { AssetAvailability, Booking, BookingSettings } from './booking.views';

export class CreateBookingMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreateBookingInput) body!: CreateBookingInput;
}

export class UpdateBookingMessage extends ConditionalRecordMessage {
  @ValidateNested() @Type(() => UpdateBookingInput) body!: UpdateBookingInput;
}

export class RejectBookingMessage extends RecordMessage {
  @ValidateNested() @Type(() => RejectBookingInput) body!: RejectBookingInput;
}

export class UpdateBookingSettingsMessage extends CallerMessage {
  @ValidateNested() @Type(() => UpdateBookingSettingsInput) body!: UpdateBookingSettingsInput;
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
  bookingsUpdate: rpc('bookings.update', UpdateBookingMessage, reply<Booking>()),
  bookingsConfirm: rpc('bookings.confirm', RecordMessage, reply<Booking>()),
  bookingsReject: rpc('bookings.reject', RejectBookingMessage, reply<Booking>()),
  bookingsCancel: rpc('bookings.cancel', CancelBookingMessage, reply<Booking>()),
  bookingSettingsGet: rpc('bookings.settings.get', CallerMessage, reply<BookingSettings>(), READ),
  bookingSettingsUpdate: rpc(
    'bookings.settings.update',
    UpdateBookingSettingsMessage,
    reply<BookingSettings>(),
  ),
  // READ, not LIST: one asset's busy stretches are two index lookups at any size (ADR 0014).
  assetAvailability: rpc(
    'assets.availability',
    AvailabilityMessage,
    reply<AssetAvailability>(),
    READ,
  ),
  bookingsCheckOut: rpc('bookings.check-out', RecordMessage, reply<Booking>()),
  bookingsCheckIn: rpc('bookings.check-in', CheckInBookingMessage, reply<Booking>()),
};
