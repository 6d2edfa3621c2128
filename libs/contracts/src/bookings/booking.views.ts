import { IsBoolean } from 'class-validator';
import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  Field,
  IntField,
  IdField,
  ListField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { pageOf } from '../shared/paging';
import { AssetRef, PersonRef, type NamedRef } from '../shared/refs';
import {
  BOOKING_CANCEL_REASONS,
  BOOKING_STATUSES,
  type BookingCancelReason,
  type BookingStatus,
} from './booking.constants';

/** An asset of a booking: as it is now, and whether it came back from the check-out. */
@ContractSchema({ name: 'BookingAsset' })
export class BookingAsset extends AssetRef {
  @TimestampField({
    nullable: true,
    description: 'When it came back from the booking’s check-out; null while out, or before.',
  })
  returned_at!: string | null;
}

@ContractSchema({ name: 'BookingCancellation' })
export class BookingCancellation {
  @EnumField(BOOKING_CANCEL_REASONS, {
    description: '`cancelled` by someone, or `rejected` by a manager (approval).',
  })
  reason!: BookingCancelReason;
  @TextField({ nullable: true, description: 'What they said, if anything.' }) note!: string | null;
  @TimestampField() at!: string;
}

export const BOOKING_EXAMPLE = {
  id: 'bkg_01jd8z4a5b6c7d8e9f0g1h2j3k',
  status: 'confirmed' as BookingStatus,
  person: { id: 'per_01jd8x2b6c8e0g2j4m6p8r0t2w', name: 'Margaret Hamilton' },
  assets: [
    {
      id: 'ast_01jd8x2b6c8e0g2j4m6p8r0t2x',
      name: 'Sony A7 IV',
      asset_tag: 'CAM-0042',
      returned_at: null,
    },
  ],
  starts_at: '2026-12-04T09:00:00.000Z',
  ends_at: '2026-12-04T18:00:00.000Z',
  notes: 'Product shoot',
  cancellation: null,
  checked_out_at: null,
  completed_at: null,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
};

/** A booking: assets held for a person over a range. Also the `data` of every booking.* event. */
@ContractSchema({ name: 'Booking', examples: [BOOKING_EXAMPLE] })
export class Booking {
  @IdField('bkg', 'Id of the booking.') id!: string;
  @EnumField(BOOKING_STATUSES) status!: BookingStatus;
  @NestedField(PersonRef, { description: 'Who the assets are booked for.' }) person!: NamedRef;
  @ListField(BookingAsset, { description: 'The assets booked, as they are now.' })
  assets!: BookingAsset[];
  @TimestampField() starts_at!: string;
  @TimestampField() ends_at!: string;
  @TextField({ nullable: true }) notes!: string | null;
  @NestedField(BookingCancellation, {
    nullable: true,
    description: 'Why and when it was cancelled or rejected; null otherwise.',
  })
  cancellation!: BookingCancellation | null;
  @TimestampField({ nullable: true, description: 'When its assets were handed out.' })
  checked_out_at!: string | null;
  @TimestampField({ nullable: true, description: 'When the last of them came back.' })
  completed_at!: string | null;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
}

export const BookingPage = pageOf(Booking, { name: 'BookingPage' });

/** One stretch of time an asset is taken: by a booking, or by a check-out. */
@ContractSchema({ name: 'BusyInterval' })
export class BusyInterval {
  @TimestampField({ description: 'From (clipped to the range asked).' }) from!: string;
  @TimestampField({
    nullable: true,
    description: 'Until (clipped to the range asked); null: a check-out with no due date.',
  })
  to!: string | null;
  @EnumField(['booking', 'check_out'] as const, {
    description: '`booking`: held by a booking; `check_out`: checked out by hand.',
  })
  kind!: 'booking' | 'check_out';
  @TextField({ nullable: true, description: 'The booking, for `kind: booking`.' })
  booking_id!: string | null;
  @EnumField(BOOKING_STATUSES, { nullable: true, description: 'Its status, for a booking.' })
  status!: BookingStatus | null;
  @NestedField(PersonRef, { description: 'Who has it (or will).' }) person!: NamedRef;
}

/** GET /assets/{id}/availability: when the asset is taken within [from, to). */
@ContractSchema({ name: 'AssetAvailability' })
export class AssetAvailability {
  @NestedField(AssetRef) asset!: AssetRef;
  @TimestampField() from!: string;
  @TimestampField() to!: string;
  @ListField(BusyInterval, {
    description: 'Busy stretches, by start; the asset is free outside them.',
  })
  busy!: BusyInterval[];
}

/** GET /settings/bookings: how the workspace's bookings behave. */
@ContractSchema({
  name: 'BookingSettings',
  examples: [{ approval_required: false, no_show_grace_minutes: 60, updated_at: null }],
})
export class BookingSettings {
  @Field({ type: 'boolean' }, [IsBoolean()], {
    description:
      'Bookings made by members are `requested` until a manager confirms or rejects them; ' +
      'managers, admins, owners and write keys are confirmed at once.',
  })
  approval_required!: boolean;
  @IntField({
    min: 0,
    description: 'Minutes after its start a confirmed booking not checked out is a no-show.',
  })
  no_show_grace_minutes!: number;
  @TimestampField({ nullable: true, description: 'Last changed; null: the defaults.' })
  updated_at!: string | null;
}
