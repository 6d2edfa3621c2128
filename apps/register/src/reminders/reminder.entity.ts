import { REMINDER_STATUSES, REMINDER_UNITS, type ReminderStatus } from '@custodian/contracts';
import { checkOneOf } from '@custodian/persistence';
import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * register.reminders. `due_at` is the next occurrence; the occurrences of a repeating one are
 * counted from `anchor_at` (`anchor_count` fired since), so months do not drift: 31 January,
 * 28 February, 31 March. The record it is about is checked when it is set, without a foreign
 * key: an asset in the bin has left register.assets, and its reminders outlive it.
 */
@Entity({ schema: 'register', name: 'reminders' })
@Check('reminders_status_check', checkOneOf('status', REMINDER_STATUSES))
@Check('reminders_repeat_unit_check', checkOneOf('repeat_unit', REMINDER_UNITS))
@Check(
  'reminders_repeat_check',
  '(repeat_every IS NULL) = (repeat_unit IS NULL) AND repeat_every BETWEEN 1 AND 365',
)
@Check('reminders_subject_check', 'num_nonnulls(asset_id, person_id, license_id) <= 1')
@Index('reminders_workspace_due', ['workspace_id', 'due_at', 'id'])
@Index('reminders_asset', ['workspace_id', 'asset_id'], { where: 'asset_id IS NOT NULL' })
@Index('reminders_person', ['workspace_id', 'person_id'], { where: 'person_id IS NOT NULL' })
@Index('reminders_license', ['workspace_id', 'license_id'], { where: 'license_id IS NOT NULL' })
export class ReminderEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'reminders_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  @Column({ type: 'text', default: 'scheduled' })
  status!: ReminderStatus;

  @Column({ type: 'timestamptz' })
  due_at!: Date;

  /** The occurrence the count starts from: the first, or the one a change set. */
  @Column({ type: 'timestamptz' })
  anchor_at!: Date;

  /** Occurrences fired since anchor_at. */
  @Column({ type: 'integer', default: 0 })
  anchor_count!: number;

  @Column({ type: 'integer', nullable: true })
  repeat_every!: number | null;

  @Column({ type: 'text', nullable: true })
  repeat_unit!: string | null;

  /** Occurrences fired in all. */
  @Column({ type: 'integer', default: 0 })
  occurrences!: number;

  @Column({ type: 'timestamptz', nullable: true })
  last_due_at!: Date | null;

  @Column({ type: 'text', nullable: true })
  asset_id!: string | null;

  @Column({ type: 'text', nullable: true })
  person_id!: string | null;

  @Column({ type: 'text', nullable: true })
  license_id!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}
