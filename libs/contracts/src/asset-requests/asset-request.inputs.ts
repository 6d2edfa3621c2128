import { EnumField, InstantField, TextField } from '../fields/field.decorators';
import {
  ASSET_REQUEST_FULFILMENTS,
  ASSET_REQUEST_STATUSES,
  type AssetRequestFulfilment,
  type AssetRequestStatus,
} from './asset-request.constants';

/**
 * Body of POST /requests: a given asset (`asset_id`) or any asset of a category (`category`,
 * by name), exactly one of them; for now, or for a range (`starts_at` and `ends_at` together).
 */
export class CreateAssetRequestInput {
  @TextField({ min: 1, max: 64, description: 'The person the asset is for.' })
  person_id!: string;

  @TextField({
    min: 1,
    max: 64,
    optional: true,
    description: 'The asset asked for; or give `category` instead.',
  })
  asset_id?: string;

  @TextField({
    min: 1,
    max: 200,
    notBlank: true,
    optional: true,
    description: 'Any asset of this category (its name, as assets give it); or give `asset_id`.',
  })
  category?: string;

  @InstantField({
    optional: true,
    description: 'When it is needed from; with `ends_at`. Left out: now, with no end.',
  })
  starts_at?: string;

  @InstantField({ optional: true, description: 'Until when; after `starts_at`, in the future.' })
  ends_at?: string;

  @TextField({ max: 2000, optional: true, nullable: true, description: 'Why, for the manager.' })
  note?: string | null;
}

/**
 * Body of POST /requests/{id}/approve: the asset given (the one asked for when left out) and
 * how: checked out now, or booked for a range. Everything happens in one transaction: a
 * refusal (the asset is taken, a booking overlaps) leaves the request pending.
 */
export class ApproveAssetRequestInput {
  @TextField({
    min: 1,
    max: 64,
    optional: true,
    description:
      'The asset given: the one asked for when left out; required for a request by category, ' +
      'and then of that category.',
  })
  asset_id?: string;

  @EnumField(ASSET_REQUEST_FULFILMENTS, {
    optional: true,
    description:
      '`check_out`: handed out now; `booking`: booked for the range (confirmed at once). ' +
      'Left out: `booking` when the request has a range, `check_out` otherwise.',
  })
  fulfil_by?: AssetRequestFulfilment;

  @InstantField({
    optional: true,
    description: 'For a booking: its start; the request’s when left out.',
  })
  starts_at?: string;

  @InstantField({
    optional: true,
    description: 'For a booking: its end; the request’s when left out.',
  })
  ends_at?: string;

  @InstantField({
    optional: true,
    description:
      'For a check-out: when it is due back; the request’s `ends_at` when left out (none if it has none).',
  })
  due_at?: string;

  @TextField({ max: 500, optional: true, nullable: true, description: 'For whoever asked.' })
  note?: string | null;
}

/** Body of POST /requests/{id}/reject: why, which whoever asked reads. */
export class RejectAssetRequestInput {
  @TextField({
    min: 1,
    max: 500,
    notBlank: true,
    description: 'Why the request is refused; shown to whoever asked.',
  })
  note!: string;
}

/** Query of GET /requests: every filter optional, combined with AND; newest first. */
export class AssetRequestListQuery {
  @EnumField(ASSET_REQUEST_STATUSES, { optional: true }) status?: AssetRequestStatus;
  @TextField({ min: 1, max: 64, optional: true, description: 'Requests for this person.' })
  person_id?: string;
  @TextField({ min: 1, max: 64, optional: true, description: 'Requests naming this asset.' })
  asset_id?: string;
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Items per page, 1 to 200.' })
  pageSize?: string;
}
