import {
  Booking,
  BookingListQuery,
  BookingPage,
  CancelBookingInput,
  CheckInBookingInput,
  CreateBookingInput,
  RegisterRpc,
  RejectBookingInput,
  UpdateBookingInput,
  type Page,
} from '@custodian/contracts';
import type { RequestIdentity } from '@custodian/messaging';
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors, ApiIdParam } from '../http/api-docs.decorators';
import { ApiConditionalRead, ApiConditionalWrite, IfMatch } from '../http/entity-tags';
import { AcceptsIdempotencyKey, IdempotentRequest } from '../http/idempotency-key';
import { RegisterClient } from '../register-client/register-client';

/** HTTP face of the register's bookings; the rules, and the overlap constraint, live there. */
@ApiTags('Bookings')
@Controller('bookings')
export class BookingsController {
  constructor(private readonly register: RegisterClient) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'listBookings',
    summary: 'List bookings',
    description:
      'Paged, ordered by `starts_at`, then `id`. `from` and `to` keep the bookings whose range ' +
      'overlaps [from, to); the other filters are exact. Always the paged envelope.',
  })
  @ApiOkResponse({ type: BookingPage, description: 'OK.' })
  @ApiErrors(400)
  list(@Access() access: AccessRecord, @Query() query: BookingListQuery): Promise<Page<Booking>> {
    return this.register.call(RegisterRpc.bookingsList, access, { query });
  }

  @Post()
  @AcceptsIdempotencyKey()
  @HttpCode(201)
  @RequiresScope('write')
  @ApiOperation({
    operationId: 'createBooking',
    summary: 'Book assets for a person',
    description:
      'Holds every asset for [starts_at, ends_at). A booking overlapping a held booking of ' +
      'any of its assets (requested, confirmed, checked out, overdue), or an asset checked out ' +
      'with a due date after `starts_at`, is a 409 naming each conflict; the database refuses ' +
      'the overlap, so of concurrent requests for one slot exactly one succeeds. Assets not ' +
      'found, in the bin, retired, lost or stolen, and an inactive person, are a 400 naming ' +
      'them. A write key acts as admin, so its booking is confirmed at once: fires ' +
      '`booking.created`, then `booking.confirmed`. (With `approval_required` in the booking ' +
      'settings, a console member’s booking is `requested` and fires `booking.requested`.)',
  })
  @ApiCreatedResponse({ type: Booking, description: 'Created: the booking, confirmed.' })
  @ApiErrors(400, 409, 422)
  create(
    @Access() access: AccessRecord,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CreateBookingInput,
  ): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsCreate, access, { body }, identity);
  }

  @Get(':id')
  @RequiresScope('read')
  @ApiIdParam('id', 'booking')
  @ApiOperation({ operationId: 'getBooking', summary: 'Fetch one booking' })
  @ApiOkResponse({ type: Booking, description: 'OK.' })
  @ApiConditionalRead()
  @ApiErrors(404)
  get(@Access() access: AccessRecord, @Param('id') id: string): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsGet, access, { id });
  }

  @Patch(':id')
  @AcceptsIdempotencyKey()
  @RequiresScope('write')
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'updateBooking',
    summary: 'Move or change a booking',
    description:
      'Partial. Requested or confirmed: `asset_ids`, `starts_at`, `ends_at` and `notes`; an ' +
      'overlap is a 409 naming each conflict, and the no-show date follows the start. Checked ' +
      'out or overdue: `ends_at` (each asset’s due date follows, `asset.updated` each; an ' +
      'overdue booking given a later end is checked out again) and `notes`; other fields are ' +
      'a 409. Cancelled, completed and no-show bookings do not change (409). The spec has no ' +
      '`booking.updated` event: the change is in the activity feed.',
  })
  @ApiOkResponse({ type: Booking, description: 'OK.' })
  @ApiConditionalWrite()
  @ApiErrors(400, 404, 409, 412, 422)
  update(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: UpdateBookingInput,
    @IfMatch() ifMatch: string[] | undefined,
  ): Promise<Booking> {
    return this.register.call(
      RegisterRpc.bookingsUpdate,
      access,
      { id, body, ...(ifMatch ? { if_match: ifMatch } : {}) },
      identity,
    );
  }

  @Post(':id/confirm')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'confirmBooking',
    summary: 'Confirm a requested booking',
    description:
      'A `requested` booking (else 409) before its end: fires `booking.confirmed`, once per ' +
      'booking. Its slot was held since it was requested.',
  })
  @ApiOkResponse({ type: Booking, description: 'Confirmed.' })
  @ApiErrors(404, 409, 422)
  confirm(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
  ): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsConfirm, access, { id }, identity);
  }

  @Post(':id/reject')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'rejectBooking',
    summary: 'Reject a requested booking',
    description:
      'A `requested` booking (else 409), with the reason (`note`, required): its slot is ' +
      'free again. Fires `booking.cancelled` with `cancellation.reason` `rejected`.',
  })
  @ApiOkResponse({ type: Booking, description: 'Rejected.' })
  @ApiErrors(400, 404, 409, 422)
  reject(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: RejectBookingInput,
  ): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsReject, access, { id, body }, identity);
  }

  @Post(':id/cancel')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'cancelBooking',
    summary: 'Cancel a booking',
    description:
      'Before its assets are handed out (requested or confirmed; else 409): its range is ' +
      'free again at once. Fires `booking.cancelled`, with `cancellation.reason` `cancelled`.',
  })
  @ApiOkResponse({ type: Booking, description: 'Cancelled.' })
  @ApiErrors(404, 409, 422)
  cancel(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CancelBookingInput,
  ): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsCancel, access, { id, body }, identity);
  }

  @Post(':id/check-out')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'checkOutBooking',
    summary: 'Hand out a booking’s assets',
    description:
      'A confirmed booking, before its end: each asset is checked out to the booking’s person, ' +
      'due back at `ends_at`, with the events a check-out by hand fires (`asset.updated`, ' +
      '`assignment.checked_out`), then `booking.checked_out`. Before `starts_at` it is an ' +
      'early check-out, which a booking in between refuses (409 naming it). An asset checked ' +
      'out to someone, retired, lost or stolen is a 409 naming it. When `ends_at` passes with ' +
      'assets still out, `booking.overdue` fires once.',
  })
  @ApiOkResponse({ type: Booking, description: 'Checked out.' })
  @ApiErrors(404, 409, 422)
  checkOut(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
  ): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsCheckOut, access, { id }, identity);
  }

  @Post(':id/check-in')
  @AcceptsIdempotencyKey()
  @HttpCode(200)
  @RequiresScope('write')
  @ApiIdParam('id', 'booking')
  @ApiOperation({
    operationId: 'checkInBooking',
    summary: 'Take back a booking’s assets',
    description:
      'Some (`asset_ids`) or all of the assets still out: `assignment.checked_in` each. The ' +
      'last one back completes the booking (`booking.completed`) and frees the rest of its ' +
      'range. An asset not on the booking is a 400, one already back a 409.',
  })
  @ApiOkResponse({ type: Booking, description: 'Checked in.' })
  @ApiErrors(400, 404, 409, 422)
  checkIn(
    @Access() access: AccessRecord,
    @Param('id') id: string,
    @IdempotentRequest() identity: RequestIdentity | undefined,
    @Body() body: CheckInBookingInput,
  ): Promise<Booking> {
    return this.register.call(RegisterRpc.bookingsCheckIn, access, { id, body }, identity);
  }
}
