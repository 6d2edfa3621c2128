import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsString,
  Matches,
} from 'class-validator';
import { EnumField, Field, InstantField, IntField, TextField } from '../fields/field.decorators';
import {
  BOOKING_ASSETS_MAX,
  BOOKING_NO_SHOW_GRACE_MINUTES_MAX,
  BOOKING_STATUSES,
  type BookingStatus,
} from './booking.constants';

const ID = (prefix: string) => new RegExp(`^${prefix}_[0-9a-z]{26}$`);

/** A list of asset ids, each once: `asset_ids` of a booking and of its check-in. */
const assetIdList = (description: string, optional = false) =>
  Field(
    {
      type: 'array',
      items: { type: 'string', pattern: '^ast_[0-9a-z]{26}$' },
      minItems: 1,
      maxItems: BOOKING_ASSETS_MAX,
      uniqueItems: true,
    },
    [
      IsArray({ message: 'asset_ids must be a list of asset ids' }),
      ArrayMinSize(1, { message: 'asset_ids must name at least one asset' }),
      ArrayMaxSize(BOOKING_ASSETS_MAX, {
        message: `asset_ids must name at most ${BOOKING_ASSETS_MAX} assets`,
      }),
      ArrayUnique({ message: 'asset_ids must name each asset once' }),
      IsString({ each: true, message: 'each of asset_ids must be an asset id (ast_...)' }),
      Matches(ID('ast'), {
        each: true,
        message: 'each of asset_ids must be an asset id (ast_...)',
      }),
    ],
    { description, optional },
  );

/** Body of POST /bookings: one or more assets for a person, from starts_at to ends_at. */
export class CreateBookingInput {
  @TextField({ min: 1, max: 64, description: 'The person the assets are booked for.' })
  person_id!: string;

  @assetIdList(`The assets booked, 1 to ${BOOKING_ASSETS_MAX}, each once.`)
  asset_ids!: string[];

  @InstantField({ description: 'When the booking starts.' }) starts_at!: string;
  @InstantField({ description: 'When it ends: after starts_at.' }) ends_at!: string;
  @TextField({ max: 2000, optional: true, nullable: true }) notes?: string | null;
}

/**
 * Body of PATCH /bookings/{id}: only the fields sent change. Before check-out every field may
 * change; a checked-out booking may move its end (an extension or an earlier return date)
 * and its notes.
 */
export class UpdateBookingInput {
  @assetIdList(`The assets booked, 1 to ${BOOKING_ASSETS_MAX}, each once.`, true)
  asset_ids?: string[];

  @InstantField({ optional: true, description: 'When the booking starts.' }) starts_at?: string;
  @InstantField({ optional: true, description: 'When it ends: after starts_at.' })
  ends_at?: string;
  @TextField({ max: 2000, optional: true, nullable: true }) notes?: string | null;
}

/** Body of POST /bookings/{id}/reject: why, which the booking's cancellation keeps. */
export class RejectBookingInput {
  @TextField({
    min: 1,
    max: 500,
    notBlank: true,
    description: 'Why the booking is refused; shown to whoever asked.',
  })
  note!: string;
}

/** Body of PATCH /settings/bookings: only the fields sent change. */
export class UpdateBookingSettingsInput {
  @Field({ type: 'boolean' }, [IsBoolean({ message: 'approval_required must be true or false' })], {
    optional: true,
    description:
      'Bookings made by members wait for a manager (`requested`) instead of being confirmed.',
  })
  approval_required?: boolean;

  @IntField({
    min: 0,
    max: BOOKING_NO_SHOW_GRACE_MINUTES_MAX,
    optional: true,
    description:
      'Minutes after its start a booking not checked out becomes a no-show; applies to ' +
      'bookings made or moved after the change.',
  })
  no_show_grace_minutes?: number;
}

/** Body of POST /bookings/{id}/check-in: the assets that came back; all still out if left out. */
export class CheckInBookingInput {
  @assetIdList('The assets that came back; every asset still out when left out.', true)
  asset_ids?: string[];
}

/** Body of POST /bookings/{id}/cancel. */
export class CancelBookingInput {
  @TextField({ max: 500, optional: true, nullable: true, description: 'Why, for the record.' })
  note?: string | null;
}

/** Query of GET /bookings: every filter optional, combined with AND. */
export class BookingListQuery {
  @InstantField({ optional: true, description: 'Bookings that end after this instant.' })
  from?: string;
  @InstantField({ optional: true, description: 'Bookings that start before this instant.' })
  to?: string;
  @TextField({ min: 1, max: 64, optional: true, description: 'Bookings holding this asset.' })
  asset_id?: string;
  @TextField({ min: 1, max: 64, optional: true, description: 'Bookings for this person.' })
  person_id?: string;
  @EnumField(BOOKING_STATUSES, { optional: true }) status?: BookingStatus;
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Items per page, 1 to 200.' })
  pageSize?: string;
}

/** Query of GET /assets/{id}/availability. */
export class AvailabilityQuery {
  @InstantField({ optional: true, description: 'Start of the range; now when left out.' })
  from?: string;
  @InstantField({
    optional: true,
    description: 'End of the range: 30 days after `from` when left out, at most 366.',
  })
  to?: string;
}
