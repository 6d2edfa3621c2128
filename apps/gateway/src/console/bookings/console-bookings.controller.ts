import {
  AssetAvailability,
  AvailabilityQuery,
  Booking,
  BookingListQuery,
  BookingPage,
  BookingSettings,
  CancelBookingInput,
  CheckInBookingInput,
  CreateBookingInput,
  RegisterRpc,
  RejectBookingInput,
  UpdateBookingInput,
  UpdateBookingSettingsInput,
  type Page,
} from '@custodian/contracts';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiIdParam } from '../../http/api-docs.decorators';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../../http/entity-tags';
import { ConsoleRegister } from '../register/console-register';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';

/**
 * Bookings for signed-in members: the API's messages with the member as the caller, so the
 * register applies their role. `bookings.request` lets every role book, change and cancel the
 * bookings they made (under approval a member's booking is `requested`); the register refuses
 * (403) a member acting on someone else's. `bookings.manage` (owner, admin, manager) confirms,
 * rejects, hands out and takes back.
 */
@ApiTags('Bookings')
@Controller('console/api')
export class ConsoleBookingsController {
  constructor(private readonly register: ConsoleRegister) {}

  @Get('bookings')
  @ConsoleAccess('bookings.view')
  @ApiOperation({
    operationId: 'listBookings',
    summary: 'A page of bookings',
    description:
      'By `starts_at`, then `id`. `from` and `to` keep the bookings overlapping [from, to); ' +
      'the other filters are exact.',
  })
  @ApiOkResponse({ type: BookingPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Caller() caller: ConsoleCaller, @Query() query: BookingListQuery): Promise<Page<Booking>> {
    return this.register.call(RegisterRpc.bookingsList, caller, {
      query: { ...query, page: query.page ?? '1' },
    });
  }

  @Post('bookings')
  @ConsoleAccess('bookings.request')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createBooking',
    summary: 'Book assets for a person',
    description:
      'As `POST /api/v1/bookings`. An owner, admin or manager’s booking is confirmed at once ' +
      '(`booking.created`, `booking.confirmed`); with `approval_required`, a member’s is ' +
      '`requested` (`booking.created`, `booking.requested`) and holds its slot. An overlap is ' +
      'a 409 naming each conflicting booking, asset and range.',
  })
  @ApiCreatedResponse({ type: Booking, description: 'Created.' })
  @ApiErrors(409)
  create(@Caller() caller: ConsoleCaller, @Body() body: CreateBookingInput): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsCreate, caller, { body });
  }

  @Get('bookings/:id')
  @ConsoleAccess('bookings.view')
  @ApiIdParam('id', 'booking')
  @ApiOperation({ operationId: 'getBooking', summary: 'One booking' })
  @ApiOkResponse({ type: Booking, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsGet, caller, { id });
  }

  @Patch('bookings/:id')
  @ConsoleAccess('bookings.request')
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'updateBooking',
    summary: 'Move or change a booking',
    description:
      'As `PATCH /api/v1/bookings/{id}`. A member changes only the bookings they made, and ' +
      'under approval only the notes of a confirmed one (403 otherwise).',
  })
  @ApiOkResponse({ type: Booking, description: 'The booking after the change.' })
  @ApiConditionalWrite()
  @ApiErrors(404, 409, 412)
  update(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: UpdateBookingInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsUpdate, caller, {
      id,
      body,
      ...(ifMatch ? { if_match: ifMatch } : {}),
    });
  }

  @Post('bookings/:id/confirm')
  @ConsoleAccess('bookings.manage')
  @HttpCode(200)
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'confirmBooking',
    summary: 'Confirm a requested booking',
    description: 'A `requested` booking (else 409): fires `booking.confirmed`.',
  })
  @ApiOkResponse({ type: Booking, description: 'Confirmed.' })
  @ApiErrors(404, 409)
  confirm(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsConfirm, caller, { id });
  }

  @Post('bookings/:id/reject')
  @ConsoleAccess('bookings.manage')
  @HttpCode(200)
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'rejectBooking',
    summary: 'Reject a requested booking',
    description:
      'A `requested` booking (else 409), with the reason: its slot is free again. Fires ' +
      '`booking.cancelled` with `cancellation.reason` `rejected`.',
  })
  @ApiOkResponse({ type: Booking, description: 'Rejected.' })
  @ApiErrors(404, 409)
  reject(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: RejectBookingInput,
  ): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsReject, caller, { id, body });
  }

  @Post('bookings/:id/cancel')
  @ConsoleAccess('bookings.request')
  @HttpCode(200)
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'cancelBooking',
    summary: 'Cancel a booking',
    description:
      'Requested or confirmed (else 409); a member cancels only the bookings they made. ' +
      'Fires `booking.cancelled`.',
  })
  @ApiOkResponse({ type: Booking, description: 'Cancelled.' })
  @ApiErrors(404, 409)
  cancel(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: CancelBookingInput,
  ): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsCancel, caller, { id, body });
  }

  @Post('bookings/:id/check-out')
  @ConsoleAccess('bookings.manage')
  @HttpCode(200)
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'checkOutBooking',
    summary: 'Hand out a booking’s assets',
    description:
      'As `POST /api/v1/bookings/{id}/check-out`: each asset checked out to the booking’s ' +
      'person, due at `ends_at`; fires `booking.checked_out`.',
  })
  @ApiOkResponse({ type: Booking, description: 'Checked out.' })
  @ApiErrors(404, 409)
  checkOut(@Caller() caller: ConsoleCaller, @Param('id') id: string): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsCheckOut, caller, { id });
  }

  @Post('bookings/:id/check-in')
  @ConsoleAccess('bookings.manage')
  @HttpCode(200)
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'checkInBooking',
    summary: 'Take back a booking’s assets',
    description:
      'Some (`asset_ids`) or all of the assets still out; the last one back completes the ' +
      'booking (`booking.completed`).',
  })
  @ApiOkResponse({ type: Booking, description: 'Checked in.' })
  @ApiErrors(404, 409)
  checkIn(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Body() body: CheckInBookingInput,
  ): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsCheckIn, caller, { id, body });
  }

  @Get('assets/:id/availability')
  @ConsoleAccess('bookings.view')
  @ApiIdParam('id', 'asset')
  @ApiOperation({
    operationId: 'getAssetAvailability',
    summary: 'When an asset is taken',
    description:
      'Within [from, to) (now and 30 days on by default, 366 days at most): the bookings that ' +
      'hold the asset and a check-out by hand, each clipped to the range, by start.',
  })
  @ApiOkResponse({ type: AssetAvailability, description: 'OK.' })
  @ApiErrors(404)
  availability(
    @Caller() caller: ConsoleCaller,
    @Param('id') id: string,
    @Query() query: AvailabilityQuery,
  ): Promise<AssetAvailability> {
    return this.register.call(RegisterRpc.assetAvailability, caller, { id, query });
  }

  @Get('settings/bookings')
  @ConsoleAccess('bookings.view')
  @ApiOperation({ operationId: 'getBookingSettings', summary: 'The booking settings' })
  @ApiOkResponse({ type: BookingSettings, description: 'OK: the defaults until changed.' })
  settings(@Caller() caller: ConsoleCaller): Promise<BookingSettings> {
    return this.register.call(RegisterRpc.bookingSettingsGet, caller, {});
  }

  @Patch('settings/bookings')
  @ConsoleAccess('bookings.manage')
  @ApiOperation({
    operationId: 'updateBookingSettings',
    summary: 'Change the booking settings',
    description:
      'Partial: the fields sent change, at least one. `approval_required` applies to bookings ' +
      'made from then on; `no_show_grace_minutes` (0 to 10080) to bookings made or moved from ' +
      'then on.',
  })
  @ApiOkResponse({ type: BookingSettings, description: 'OK: the settings now.' })
  updateSettings(
    @Caller() caller: ConsoleCaller,
    @Body() body: UpdateBookingSettingsInput,
  ): Promise<BookingSettings> {
    return this.register.call(RegisterRpc.bookingSettingsUpdate, caller, { body });
  }
}
