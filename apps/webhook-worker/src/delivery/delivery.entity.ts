import { DELIVERY_STATUSES, type DeliveryStatus } from '@custodian/contracts';
import { checkOneOf } from '@custodian/persistence';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { EndpointEntity } from '../webhooks/endpoint.entity';
import { EventPayloadEntity } from './event-payload.entity';

/** delivery.deliveries: one per (event, endpoint), leased by the scheduler while it is sent. */
@Entity({ schema: 'delivery', name: 'deliveries' })
@Unique('deliveries_event_endpoint', ['event_id', 'endpoint_id'])
@Check('deliveries_status_check', checkOneOf('status', DELIVERY_STATUSES))
@Index('deliveries_due_by_endpoint', ['endpoint_id', 'next_attempt_at'], {
  where: `status = 'pending'`,
})
@Index('deliveries_finished', ['created_at'], { where: `status <> 'pending'` })
@Index('deliveries_pending_pings', ['endpoint_id'], {
  where: `status = 'pending' AND event = 'ping'`,
})
// (endpoint_id, created_at DESC, id DESC): TypeORM cannot declare a descending index column.
@Index('deliveries_endpoint_log', { synchronize: false })
// (workspace_id, created_at DESC, id DESC): the console's log of a workspace.
@Index('deliveries_workspace_log', { synchronize: false })
// (endpoint_id, finished_at) INCLUDE (status) WHERE status <> 'pending': TypeORM has no INCLUDE.
@Index('deliveries_finished_by_endpoint', { synchronize: false })
export class DeliveryEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'deliveries_pkey' })
  id!: string;

  /** Its event's payload is stored once, in delivery.event_payloads. */
  @Column({ type: 'text' })
  @ForeignKey(() => EventPayloadEntity, { name: 'deliveries_event_id_fkey' })
  event_id!: string;

  @Column({ type: 'text' })
  @ForeignKey(() => EndpointEntity, { name: 'deliveries_endpoint_id_fkey', onDelete: 'CASCADE' })
  endpoint_id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  event!: string;

  @Column({ type: 'text', default: 'pending' })
  status!: DeliveryStatus;

  /** Attempts recorded so far, over every chain. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** 1 for the first send; each resend starts the next chain of attempts. */
  @Column({ type: 'integer', default: 1 })
  chain!: number;

  /** Attempts made before the current chain began: retries are counted per chain. */
  @Column({ type: 'integer', default: 0 })
  attempts_before_chain!: number;

  /** When it was delivered or failed (its last chain); null while pending. */
  @Column({ type: 'timestamptz', nullable: true })
  finished_at!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  next_attempt_at!: Date;

  /** Until when a worker holds it; null when no worker does. */
  @Column({ type: 'timestamptz', nullable: true })
  lease_until!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;
}
