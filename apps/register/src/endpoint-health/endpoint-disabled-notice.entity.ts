import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * register.endpoint_disabled_notices: each worker notice of an auto-disabled endpoint the
 * register e-mailed about, by message id (the worker's outbox row id), so a redelivered
 * message sends nothing twice.
 */
@Entity({ schema: 'register', name: 'endpoint_disabled_notices' })
export class EndpointDisabledNoticeEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'endpoint_disabled_notices_pkey' })
  message_id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  endpoint_id!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'timestamptz' })
  disabled_at!: Date;

  /** How many owners and admins were e-mailed. */
  @Column({ type: 'int' })
  recipients!: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  received_at!: Date;
}
