import type { DeliveryErrorKind } from '@custodian/contracts';
import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { DeliveryEntity } from './delivery.entity';

/** delivery.delivery_attempts: one row per HTTP attempt of a delivery, its log. */
@Entity({ schema: 'delivery', name: 'delivery_attempts' })
export class DeliveryAttemptEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'delivery_attempts_pkey' })
  @ForeignKey(() => DeliveryEntity, {
    name: 'delivery_attempts_delivery_id_fkey',
    onDelete: 'CASCADE',
  })
  delivery_id!: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'delivery_attempts_pkey' })
  attempt!: number;

  /** The delivery's chain it belongs to: 1 for the first send, 2.. for resends. */
  @Column({ type: 'integer', default: 1 })
  chain!: number;

  @Column({ type: 'timestamptz' })
  started_at!: Date;

  /** The headers sent (signature included: it proves nothing without the secret). */
  @Column({ type: 'jsonb', nullable: true })
  request_headers!: Record<string, string> | null;

  @Column({ type: 'integer' })
  duration_ms!: number;

  /** The receiver's HTTP status; null when none came (see error). */
  @Column({ type: 'integer', nullable: true })
  status_code!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: DeliveryErrorKind | null;

  /** The receiver's headers, sensitive ones replaced by "[hidden]". */
  @Column({ type: 'jsonb', nullable: true })
  response_headers!: Record<string, string> | null;

  /** The receiver's answer, capped by the sender. */
  @Column({ type: 'text', nullable: true })
  response_body!: string | null;
}
