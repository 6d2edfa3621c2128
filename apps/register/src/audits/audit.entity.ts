import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { CategoryEntity } from '../categories/category.entity';
import { LocationEntity } from '../locations/location.entity';

/**
 * register.audits: stock-takes (migration CreateAudits). The counts are counters, moved in the
 * transaction of each scan; missing is expected − found.
 */
@Entity({ schema: 'register', name: 'audits' })
@Check(
  'audits_status_check',
  `status IN ('starting', 'open', 'completing', 'completed', 'cancelled')`,
)
@Index('audits_workspace_created', ['workspace_id', 'created_at', 'id'])
@Index('audits_workspace_status', ['workspace_id', 'status', 'created_at', 'id'])
@Index('audits_pending_jobs', ['updated_at'], {
  where: `status IN ('starting', 'completing')`,
})
export class AuditEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'audits_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', default: 'starting' })
  status!: string;

  @Column({ type: 'text', nullable: true })
  @ForeignKey(() => LocationEntity, { name: 'audits_location_id_fkey', onDelete: 'SET NULL' })
  location_id!: string | null;

  /** The location's name at start, kept when it is renamed or deleted. */
  @Column({ type: 'text', nullable: true })
  location_name!: string | null;

  @Column({ type: 'boolean', default: false })
  include_children!: boolean;

  @Column({ type: 'text', nullable: true })
  @ForeignKey(() => CategoryEntity, { name: 'audits_category_id_fkey', onDelete: 'SET NULL' })
  category_id!: string | null;

  @Column({ type: 'text', nullable: true })
  category_name!: string | null;

  /** An audit of listed assets: the ids (the start job reads them). */
  @Column({ type: 'text', array: true, nullable: true })
  asset_ids!: string[] | null;

  @Column({ type: 'integer', default: 0 })
  expected!: number;

  /** Expected assets scanned, misplaced ones included. */
  @Column({ type: 'integer', default: 0 })
  found!: number;

  @Column({ type: 'integer', default: 0 })
  misplaced!: number;

  @Column({ type: 'integer', default: 0 })
  unexpected!: number;

  @Column({ type: 'integer', nullable: true })
  progress_done!: number | null;

  @Column({ type: 'integer', nullable: true })
  progress_total!: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  due_at!: Date | null;

  @Column({ type: 'boolean', nullable: true })
  move_found!: boolean | null;

  @Column({ type: 'boolean', nullable: true })
  mark_missing_lost!: boolean | null;

  /** The caller who started it (CallerContext): the start job's feed entry names them. */
  @Column({ type: 'jsonb' })
  created_by!: object;

  /** The caller who completed it: the completion job's writes are theirs. */
  @Column({ type: 'jsonb', nullable: true })
  completed_by!: object | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  started_at!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  completed_at!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  cancelled_at!: Date | null;
}

/** register.audit_items: one asset of an audit, expected at start, scanned, or both. */
@Entity({ schema: 'register', name: 'audit_items' })
@Check('audit_items_state_check', `state IN ('found', 'missing', 'unexpected', 'misplaced')`)
@Index('audit_items_state', ['audit_id', 'state', 'asset_id'])
@Index('audit_items_scanned', ['audit_id', 'scanned_at', 'asset_id'], {
  where: 'scanned_at IS NOT NULL',
})
@Index('audit_items_unsettled', ['audit_id', 'asset_id'], { where: 'NOT settled' })
export class AuditItemEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'audit_items_pkey' })
  @ForeignKey(() => AuditEntity, { name: 'audit_items_audit_id_fkey', onDelete: 'CASCADE' })
  audit_id!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'audit_items_pkey' })
  asset_id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  asset_name!: string;

  @Column({ type: 'text' })
  asset_tag!: string;

  @Column({ type: 'boolean' })
  expected!: boolean;

  /** found, missing (expected, not scanned yet), unexpected or misplaced. */
  @Column({ type: 'text' })
  state!: string;

  @Column({ type: 'text', nullable: true })
  expected_location_id!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  scanned_at!: Date | null;

  @Column({ type: 'text', nullable: true })
  scan_location_id!: string | null;

  /** The completion job has written what this item calls for (its event, its move). */
  @Column({ type: 'boolean', default: false })
  settled!: boolean;
}
