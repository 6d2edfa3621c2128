import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** register.notice_settings: a workspace's notice settings, when it changed the defaults. */
@Entity({ schema: 'register', name: 'notice_settings' })
@Check(
  'notice_settings_expiry_days_check',
  'cardinality(expiry_days) <= 5 AND 1 <= ALL (expiry_days) AND 365 >= ALL (expiry_days)',
)
export class NoticeSettingsEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'notice_settings_pkey' })
  workspace_id!: string;

  /** Days before an expiry date that `*.expiring` fires; written in full on every change. */
  @Column({ type: 'integer', array: true })
  expiry_days!: number[];

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}
