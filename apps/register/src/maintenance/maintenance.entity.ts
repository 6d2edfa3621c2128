import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * register.maintenance: maintenance records of assets. No foreign key to the asset: a binned
 * asset's row moves to register.deleted_assets, and its records stay with it.
 */
@Entity({ schema: 'register', name: 'maintenance' })
@Check('maintenance_type_check', `type IN ('repair', 'service', 'inspection', 'upgrade')`)
@Check('maintenance_status_check', `status IN ('open', 'resolved')`)
@Check('maintenance_resolved_check', `(status = 'resolved') = (resolved_at IS NOT NULL)`)
@Index('maintenance_workspace_status', ['workspace_id', 'status', 'created_at', 'id'])
@Index('maintenance_workspace_asset', ['workspace_id', 'asset_id', 'created_at', 'id'])
export class MaintenanceEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'maintenance_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  asset_id!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  @Column({ type: 'date', nullable: true })
  scheduled_for!: string | null;

  /** numeric(14,2): pg answers it as a string, which is what the API sends. */
  @Column({ type: 'numeric', precision: 14, scale: 2, nullable: true })
  cost!: string | null;

  @Column({ type: 'text', default: 'open' })
  status!: string;

  /** The asset's status before this record put it in `maintenance`; null: it did not. */
  @Column({ type: 'text', nullable: true })
  asset_status_before!: string | null;

  @Column({ type: 'text', nullable: true })
  resolution_notes!: string | null;

  /** The caller's key id (a console member: `console:<userId>`). */
  @Column({ type: 'text', nullable: true })
  created_by!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  resolved_at!: Date | null;

  /** The repeating reminder made with the record (`repeat`), if any. */
  @Column({ type: 'text', nullable: true })
  reminder_id!: string | null;
}
