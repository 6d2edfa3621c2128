import {
  AvailabilityMessage,
  BookingListMessage,
  CancelBookingMessage,
  CheckInBookingMessage,
  CallerMessage,
  CreateBookingMessage,
  RecordMessage,
  RegisterRpc,
  RejectBookingMessage,
  UpdateBookingMessage,
  UpdateBookingSettingsMessage,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { BookingsService } from './bookings.service';

@Controller()
export class BookingsRpcController {
  constructor(private readonly bookings: BookingsService) {}

  @Handles(RegisterRpc.bookingsList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: BookingListMessage) {
    return this.bookings.list(message.caller, message.query);
  }

  @Handles(RegisterRpc.bookingsGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: RecordMessage) {
    return this.bookings.get(message.caller, message.id);
  }

  @Handles(RegisterRpc.bookingsCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() message: CreateBookingMessage) {
    return this.bookings.create(message.caller, message.body);
  }

  @Handles(RegisterRpc.assetAvailability, REGISTER_RPC_TRANSPORT)
  availability(@Payload() message: AvailabilityMessage) {
    return this.bookings.availability(message.caller, message.id, message.query);
  }

  @Handles(RegisterRpc.bookingsCheckOut, REGISTER_RPC_TRANSPORT)
  checkOut(@Payload() message: RecordMessage) {
    return this.bookings.checkOut(message.caller, message.id);
  }

  @Handles(RegisterRpc.bookingsCheckIn, REGISTER_RPC_TRANSPORT)
  checkIn(@Payload() message: CheckInBookingMessage) {
    return this.bookings.checkIn(message.caller, message.id, message.body);
  }

  @Handles(RegisterRpc.bookingsCancel, REGISTER_RPC_TRANSPORT)
  cancel(@Payload() message: CancelBookingMessage) {
    return this.bookings.cancel(message.caller, message.id, message.body);
  }

  @Handles(RegisterRpc.bookingsUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() message: UpdateBookingMessage) {
    return this.bookings.update(message.caller, message.id, message.body, message.if_match);
  }

  @Handles(RegisterRpc.bookingsConfirm, REGISTER_RPC_TRANSPORT)
  confirm(@Payload() message: RecordMessage) {
    return this.bookings.confirm(message.caller, message.id);
  }

  @Handles(RegisterRpc.bookingsReject, REGISTER_RPC_TRANSPORT)
  reject(@Payload() message: RejectBookingMessage) {
    return this.bookings.reject(message.caller, message.id, message.body);
  }

  @Handles(RegisterRpc.bookingSettingsGet, REGISTER_RPC_TRANSPORT)
  settings(@Payload() message: CallerMessage) {
    return this.bookings.getSettings(message.caller);
  }

  @Handles(RegisterRpc.bookingSettingsUpdate, REGISTER_RPC_TRANSPORT)
  updateSettings(@Payload() message: UpdateBookingSettingsMessage) {
    return this.bookings.updateSettings(message.caller, message.body);
  }
}
