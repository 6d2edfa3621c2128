import { Check, Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** The predicate of an armed notice: neither fired, cancelled nor given up. */
export const ARMED = 'fired_at IS NULL AND cancelled_at IS NULL AND failed_at IS NULL';

/**
 * register.due_notices: one row per date a record of some domain falls due for some kind of
 * notice (`assignment.overdue` of an asset's check-out, later a booking's start or a
 * warranty's end). The due-date engine (due-date-engine.ts) claims the armed rows whose time
 * has come and runs the kind's handler in the same transaction that marks the row fired.
 */
@Entity({ schema: 'register', name: 'due_notices' })
// One row per (subject, kind, date), ever: a date that fired never fires again, and arming it
// again finds the row instead of adding one.
@Unique('due_notices_once', ['workspace_id', 'subject_type', 'subject_id', 'kind', 'due_at'])
// At most one armed date per (subject, kind): arming a new date cancels the previous one.
@Index('due_notices_one_armed', ['workspace_id', 'subject_type', 'subject_id', 'kind'], {
  unique: true,
  where: ARMED,
})
// What the engine claims, across workspaces: so not workspace first, unlike the domain tables'
// indexes. Only armed rows are in it, so it stays the size of what is still to come.
@Index('due_notices_next', ['next_attempt_at', 'id'], { where: ARMED })
@Check('due_notices_one_end', 'num_nonnulls(fired_at, cancelled_at, failed_at) <= 1')
@Check('due_notices_attempts', 'attempts >= 0')
export class DueNoticeEntity {
  /** Internal only (never in an API), so a sequence rather than a prefixed ULID. */
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'due_notices_pkey',
  })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  /** What kind of record the notice is about (`asset`), and its id. */
  @Column({ type: 'text' })
  subject_type!: string;

  @Column({ type: 'text' })
  subject_id!: string;

  /** Which handler fires it (`assignment.overdue`). */
  @Column({ type: 'text' })
  kind!: string;

  /** The date the subject falls due: what the notice is for. */
  @Column({ type: 'timestamptz' })
  due_at!: Date;

  /** When it may be claimed: due_at, pushed back after a handler failed. */
  @Column({ type: 'timestamptz' })
  next_attempt_at!: Date;

  /** How many times its handler failed. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** The last failure's message, for whoever looks at a notice that gave up. */
  @Column({ type: 'text', nullable: true })
  last_error!: string | null;

  /** When it was armed (or armed again). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  scheduled_at!: Date;

  /** At most one of these three is set; none while the notice is armed. */
  @Column({ type: 'timestamptz', nullable: true })
  fired_at!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  cancelled_at!: Date | null;

  /** Its handler failed MAX_ATTEMPTS times: left for an operator, never claimed again. */
  @Column({ type: 'timestamptz', nullable: true })
  failed_at!: Date | null;
}
