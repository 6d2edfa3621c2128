import {
  ASSET_REQUEST_FULFILMENTS,
  ASSET_REQUEST_STATUSES,
  type AssetRequestFulfilment,
  type AssetRequestStatus,
} from '@custodian/contracts';
import { checkOneOf } from '@custodian/persistence';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { BookingEntity } from '../bookings/booking.entity';
import { CategoryEntity } from '../categories/category.entity';
import { PersonEntity } from '../people/person.entity';

/**
 * register.asset_requests: an asset asked for (a given one, or any of a category) for a person,
 * and the manager's decision. No foreign key to the asset: one in the bin leaves
 * register.assets, and the request still names it.
 */
@Entity({ schema: 'register', name: 'asset_requests' })
@Check('asset_requests_status_check', checkOneOf('status', ASSET_REQUEST_STATUSES))
@Check(
  'asset_requests_fulfilled_by_check',
  `fulfilled_by IS NULL OR ${checkOneOf('fulfilled_by', ASSET_REQUEST_FULFILMENTS)}`,
)
@Check('asset_requests_subject_check', '(asset_id IS NULL) <> (category_id IS NULL)')
@Check(
  'asset_requests_range_check',
  '(starts_at IS NULL) = (ends_at IS NULL) AND (ends_at IS NULL OR ends_at > starts_at)',
)
@Index('asset_requests_workspace_status', ['workspace_id', 'status', 'created_at', 'id'])
@Index('asset_requests_workspace_created', ['workspace_id', 'created_at', 'id'])
@Index('asset_requests_workspace_creator', ['workspace_id', 'created_by', 'created_at'])
export class AssetRequestEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'asset_requests_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text', default: 'pending' })
  status!: AssetRequestStatus;

  /** Who the asset is for. */
  @Column({ type: 'text' })
  @ForeignKey(() => PersonEntity, { name: 'asset_requests_person_id_fkey' })
  person_id!: string;

  /** The asset asked for; or category_id. */
  @Column({ type: 'text', nullable: true })
  asset_id!: string | null;

  /** Any asset of this category; or asset_id. */
  @Column({ type: 'text', nullable: true })
  @ForeignKey(() => CategoryEntity, { name: 'asset_requests_category_id_fkey' })
  category_id!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  starts_at!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  ends_at!: Date | null;

  @Column({ type: 'text', nullable: true })
  note!: string | null;

  /** The key id of whoever asked (`console:<member id>` from the console). */
  @Column({ type: 'text', nullable: true })
  created_by!: string | null;

  /** The key id of whoever approved or rejected it. */
  @Column({ type: 'text', nullable: true })
  decided_by!: string | null;

  @Column({ type: 'text', nullable: true })
  decision_note!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  decided_at!: Date | null;

  /** The asset given on approval. */
  @Column({ type: 'text', nullable: true })
  given_asset_id!: string | null;

  @Column({ type: 'text', nullable: true })
  fulfilled_by!: AssetRequestFulfilment | null;

  /** The booking an approval made, for `fulfilled_by = 'booking'`. */
  @Column({ type: 'text', nullable: true })
  @ForeignKey(() => BookingEntity, { name: 'asset_requests_booking_id_fkey' })
  booking_id!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}
