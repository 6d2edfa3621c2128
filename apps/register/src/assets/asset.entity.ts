import {
  ASSET_CONDITIONS,
  ASSET_STATUSES,
  type AssetCondition,
  type AssetStatus,
} from '@custodian/contracts';
import { checkOneOf } from '@custodian/persistence';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { PersonEntity } from '../people/person.entity';
import { CategoryEntity } from '../categories/category.entity';
import { LocationEntity } from '../locations/location.entity';

/** register.assets. */
@Entity({ schema: 'register', name: 'assets' })
@Unique('assets_workspace_tag', ['workspace_id', 'asset_tag'])
@Check('assets_status_check', checkOneOf('status', ASSET_STATUSES))
@Check('assets_condition_check', checkOneOf('condition', ASSET_CONDITIONS))
@Index('assets_workspace_order', ['workspace_id', 'created_at', 'id'])
@Index('assets_workspace_status', ['workspace_id', 'status', 'created_at', 'id'])
@Index('assets_workspace_name', ['workspace_id', 'name', 'id'])
@Index('assets_workspace_updated', ['workspace_id', 'updated_at', 'id'])
@Index('assets_workspace_location', ['workspace_id', 'location_id', 'created_at', 'id'], {
  where: 'location_id IS NOT NULL',
})
@Index('assets_workspace_category', ['workspace_id', 'category_id', 'created_at', 'id'], {
  where: 'category_id IS NOT NULL',
})
@Index('assets_holder', ['assigned_to_id'], { where: 'assigned_to_id IS NOT NULL' })
@Index('assets_workspace_warranty', ['workspace_id', 'warranty_expires_on', 'id'], {
  where: 'warranty_expires_on IS NOT NULL',
})
@Index('assets_custody_due', ['custody_due_at'], {
  where: 'custody_due_at IS NOT NULL AND overdue_at IS NULL',
})
// GIN (workspace_id, search_text gin_trgm_ops): TypeORM can declare neither the method nor the
// operator class.
@Index('assets_search', { synchronize: false })
// (workspace_id, lower(asset_tag)) and (workspace_id, lower(serial_number)): a scan's lookup in
// any case; TypeORM cannot declare expression indexes.
@Index('assets_scan_tag', { synchronize: false })
@Index('assets_scan_serial', { synchronize: false })
export class AssetEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'assets_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  sku!: string | null;

  @Column({ type: 'text', default: 'active' })
  status!: AssetStatus;

  @Column({ type: 'text', nullable: true })
  brand!: string | null;

  @Column({ type: 'text', nullable: true })
  model!: string | null;

  @Column({ type: 'text', nullable: true })
  serial_number!: string | null;

  @Column({ type: 'text' })
  asset_tag!: string;

  @Column({ type: 'text', nullable: true })
  @ForeignKey(() => CategoryEntity, { name: 'assets_category_id_fkey' })
  category_id!: string | null;

  @Column({ type: 'text', nullable: true })
  @ForeignKey(() => LocationEntity, { name: 'assets_location_id_fkey' })
  location_id!: string | null;

  /** The person holding the asset (custody); set together with assigned_at. */
  @Column({ type: 'text', nullable: true })
  @ForeignKey(() => PersonEntity, { name: 'assets_assigned_to' })
  assigned_to_id!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  assigned_at!: Date | null;

  /** When the check-out is due back; null without a due date or a check-out. */
  @Column({ type: 'timestamptz', nullable: true })
  custody_due_at!: Date | null;

  /**
   * When assignment.overdue fired for custody_due_at; cleared with it. The due-date engine's
   * notices hold that state now; this stays one release, for registers of the previous
   * version running beside this one during the rollout (ADR 0020), then goes.
   */
  @Column({ type: 'timestamptz', nullable: true })
  overdue_at!: Date | null;

  /** Values of the workspace's custom fields, by key. */
  @Column({ type: 'jsonb', default: {} })
  custom_fields!: Record<string, unknown>;

  @Column({ type: 'text', nullable: true })
  condition!: AssetCondition | null;

  /** When the asset was last found by a scan (AssetsService.scan). */
  @Column({ type: 'timestamptz', nullable: true })
  last_scanned_at!: Date | null;

  /** The day it was bought. */
  @Column({ type: 'date', nullable: true })
  purchase_date!: string | null;

  /** The last day of its warranty; its expiry notices are armed by the writes that set it. */
  @Column({ type: 'date', nullable: true })
  warranty_expires_on!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;

  /** What `search` matches (LIKE, trigram-indexed): the identifying texts, lower case. */
  @Column({
    type: 'text',
    nullable: true,
    insert: false,
    update: false,
    generatedType: 'STORED',
    asExpression: `lower(
          name || chr(31) || coalesce(asset_tag, '') || chr(31) || coalesce(serial_number, '')
          || chr(31) || coalesce(brand, '') || chr(31) || coalesce(model, '')
          || chr(31) || coalesce(sku, ''))`,
  })
  search_text!: string | null;
}
