import { Column, Entity, PrimaryColumn } from 'typeorm';

/** register.license_settings: a workspace's licence settings, when it changed the defaults. */
@Entity({ schema: 'register', name: 'license_settings' })
export class LicenseSettingsEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'license_settings_pkey' })
  workspace_id!: string;

  /** Offboarding releases the person's seats when its PATCH does not say. */
  @Column({ type: 'boolean', default: false })
  release_on_offboard!: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}
