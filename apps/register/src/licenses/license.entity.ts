import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** register.licenses: software licences; the product key encrypted, never plain. */
@Entity({ schema: 'register', name: 'licenses' })
@Check('licenses_seats_check', 'seats IS NULL OR seats > 0')
@Index('licenses_workspace_name', ['workspace_id', 'name', 'id'])
export class LicenseEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'licenses_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  vendor!: string | null;

  /** Seats bought; null: unlimited. */
  @Column({ type: 'integer', nullable: true })
  seats!: number | null;

  @Column({ type: 'date', nullable: true })
  expires_on!: string | null;

  /** numeric(14,2): pg answers it as a string, which is what the API sends. */
  @Column({ type: 'numeric', precision: 14, scale: 2, nullable: true })
  cost!: string | null;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  /** SecretCipher's stored form (`v1:<key id>:...`), under LICENSE_KEY_SECRETS. */
  @Column({ type: 'text', nullable: true })
  product_key!: string | null;

  /** Set: in the bin, out of lists and fetches, restorable. */
  @Column({ type: 'timestamptz', nullable: true })
  deleted_at!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}

/**
 * register.license_seats: a seat held by a person or an asset (exactly one). No foreign key to
 * the asset: a binned asset's row moves to register.deleted_assets, and its seats stay with it
 * (restorable with it).
 */
@Entity({ schema: 'register', name: 'license_seats' })
@Check('license_seats_holder_check', '(person_id IS NULL) <> (asset_id IS NULL)')
@Index('license_seats_person', ['license_id', 'person_id'], {
  unique: true,
  where: 'person_id IS NOT NULL',
})
@Index('license_seats_asset', ['license_id', 'asset_id'], {
  unique: true,
  where: 'asset_id IS NOT NULL',
})
@Index('license_seats_holder_person', ['workspace_id', 'person_id'])
@Index('license_seats_holder_asset', ['workspace_id', 'asset_id'])
export class LicenseSeatEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'license_seats_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  @ForeignKey(() => LicenseEntity, { name: 'license_seats_license_id_fkey', onDelete: 'CASCADE' })
  license_id!: string;

  @Column({ type: 'text', nullable: true })
  // By name, not by class: people/ imports licenses/ (an offboarding releases seats), so this
  // folder may not import people/.
  @ForeignKey('PersonEntity', { name: 'license_seats_person_id_fkey' })
  person_id!: string | null;

  @Column({ type: 'text', nullable: true })
  asset_id!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  assigned_at!: Date;
}
