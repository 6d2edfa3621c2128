import {
  BOOKING_CANCEL_REASONS,
  BOOKING_STATUSES,
  type BookingCancelReason,
  type BookingStatus,
} from '@custodian/contracts';
import { checkOneOf } from '@custodian/persistence';
import { Check, Column, Entity, Exclusion, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { PersonEntity } from '../people/person.entity';

/** register.bookings: assets held for a person over a range (register.booking_assets). */
@Entity({ schema: 'register', name: 'bookings' })
@Check('bookings_status_check', checkOneOf('status', BOOKING_STATUSES))
@Check('bookings_cancel_reason_check', checkOneOf('cancel_reason', BOOKING_CANCEL_REASONS))
@Check('bookings_range_check', 'ends_at > starts_at')
@Index('bookings_workspace_starts', ['workspace_id', 'starts_at', 'id'])
@Index('bookings_workspace_person', ['workspace_id', 'person_id', 'starts_at'])
// GiST (workspace_id, tstzrange(starts_at, ends_at)), what a range's list reads: TypeORM can
// declare neither the method nor an expression index.
@Index('bookings_workspace_during', { synchronize: false })
export class BookingEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'bookings_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  @ForeignKey(() => PersonEntity, { name: 'bookings_person_id_fkey' })
  person_id!: string;

  @Column({ type: 'text' })
  status!: BookingStatus;

  @Column({ type: 'timestamptz' })
  starts_at!: Date;

  @Column({ type: 'timestamptz' })
  ends_at!: Date;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  @Column({ type: 'text', nullable: true })
  cancel_reason!: BookingCancelReason | null;

  @Column({ type: 'text', nullable: true })
  cancel_note!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  cancelled_at!: Date | null;

  /**
   * When it becomes a no-show if not checked out: its start plus the workspace's grace when it
   * was made or moved (the notice is compared with it). Null on rows the version before wrote.
   */
  @Column({ type: 'timestamptz', nullable: true })
  no_show_at!: Date | null;

  /** The key id of whoever made it (`console:<member id>` from the console). */
  @Column({ type: 'text', nullable: true })
  created_by!: string | null;

  /** When it was confirmed: at once, or by a manager's approval. */
  @Column({ type: 'timestamptz', nullable: true })
  confirmed_at!: Date | null;

  /** When its assets were handed out (check-out), if they were. */
  @Column({ type: 'timestamptz', nullable: true })
  checked_out_at!: Date | null;

  /** When the last of its assets came back. */
  @Column({ type: 'timestamptz', nullable: true })
  completed_at!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}

/**
 * register.booking_assets: one row per asset of a booking. While `holds`, the exclusion
 * constraint refuses another holding row of the asset over an overlapping `during`.
 */
@Entity({ schema: 'register', name: 'booking_assets' })
@Exclusion(
  'booking_assets_no_overlap',
  'USING gist (workspace_id WITH =, asset_id WITH =, during WITH &&) WHERE (holds)',
)
@Index('booking_assets_asset', ['workspace_id', 'asset_id'])
export class BookingAssetEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'booking_assets_pkey' })
  @ForeignKey(() => BookingEntity, { name: 'booking_assets_booking_id_fkey', onDelete: 'CASCADE' })
  booking_id!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'booking_assets_pkey' })
  asset_id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'tstzrange' })
  during!: string;

  @Column({ type: 'boolean' })
  holds!: boolean;

  /** When this asset came back from the booking's check-out; null while out or not yet out. */
  @Column({ type: 'timestamptz', nullable: true })
  returned_at!: Date | null;
}

/** register.booking_settings: a workspace's booking settings, when it changed a default. */
@Entity({ schema: 'register', name: 'booking_settings' })
@Check('booking_settings_grace_check', 'no_show_grace_minutes BETWEEN 0 AND 10080')
export class BookingSettingsEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'booking_settings_pkey' })
  workspace_id!: string;

  @Column({ type: 'boolean', default: false })
  approval_required!: boolean;

  @Column({ type: 'integer', default: 60 })
  no_show_grace_minutes!: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}
