import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  IdField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { pageOf } from '../shared/paging';
import { AssetRef, CategoryRef, PersonRef, type NamedRef } from '../shared/refs';
import {
  ASSET_REQUEST_FULFILMENTS,
  ASSET_REQUEST_STATUSES,
  type AssetRequestFulfilment,
  type AssetRequestStatus,
} from './asset-request.constants';

/** What a manager decided, and for an approval what was given and how. */
@ContractSchema({ name: 'AssetRequestDecision' })
export class AssetRequestDecision {
  @TextField({ nullable: true, description: 'What they said: the reason of a rejection.' })
  note!: string | null;
  @TimestampField() at!: string;
  @NestedField(AssetRef, { nullable: true, description: 'The asset given; null when rejected.' })
  asset!: AssetRef | null;
  @EnumField(ASSET_REQUEST_FULFILMENTS, {
    nullable: true,
    description: 'How it was given; null when rejected.',
  })
  fulfilled_by!: AssetRequestFulfilment | null;
  @TextField({ nullable: true, description: 'The booking made, for `fulfilled_by: booking`.' })
  booking_id!: string | null;
}

const AT = '2026-11-28T10:00:00.000Z';

export const ASSET_REQUEST_EXAMPLE = {
  id: 'req_01jd8z0a1b2c3d4e5f6g7h8j9k',
  status: 'pending' as AssetRequestStatus,
  person: { id: 'per_01jd8x2b6c8e0g2j4m6p8r0t2w', name: 'Margaret Hamilton' },
  asset: { id: 'ast_01jd8x2b6c8e0g2j4m6p8r0t2x', name: 'Sony A7 IV', asset_tag: 'CAM-0042' },
  category: null,
  starts_at: '2026-12-04T09:00:00.000Z',
  ends_at: '2026-12-04T18:00:00.000Z',
  note: 'Product shoot on Friday',
  decision: null,
  created_at: AT,
  updated_at: AT,
};

/** A request for an asset: what was asked, for whom, and what was decided. */
@ContractSchema({ name: 'AssetRequest', examples: [ASSET_REQUEST_EXAMPLE] })
export class AssetRequest {
  @IdField('req', 'Id of the request.') id!: string;
  @EnumField(ASSET_REQUEST_STATUSES) status!: AssetRequestStatus;
  @NestedField(PersonRef, { description: 'Who the asset is for.' }) person!: NamedRef;
  @NestedField(AssetRef, { nullable: true, description: 'The asset asked for, if a given one.' })
  asset!: AssetRef | null;
  @NestedField(CategoryRef, {
    nullable: true,
    description: 'The category asked for, if any asset of it will do.',
  })
  category!: NamedRef | null;
  @TimestampField({ nullable: true, description: 'Needed from; null: now.' })
  starts_at!: string | null;
  @TimestampField({ nullable: true, description: 'Needed until; null: no end given.' })
  ends_at!: string | null;
  @TextField({ nullable: true }) note!: string | null;
  @NestedField(AssetRequestDecision, {
    nullable: true,
    description: 'The manager’s decision; null while pending.',
  })
  decision!: AssetRequestDecision | null;
  @TimestampField() created_at!: string;
  @TimestampField() updated_at!: string;
}

export const AssetRequestPage = pageOf(AssetRequest, { name: 'AssetRequestPage' });
