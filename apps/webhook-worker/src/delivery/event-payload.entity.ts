import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * delivery.event_payloads: an event's envelope, stored once however many endpoints it goes to;
 * its deliveries reference it by event_id. Pruned once no delivery does (DeliveryPruner).
 */
@Entity({ schema: 'delivery', name: 'event_payloads' })
@Index('event_payloads_created', ['created_at'])
export class EventPayloadEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'event_payloads_pkey' })
  event_id!: string;

  /** The envelope as sent (and signed). */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  /**
   * The context (X-Request-Id) of the request whose write caused it, as its event message
   * carried it: each attempt's log lines name that request. Null when none did.
   */
  @Column({ type: 'jsonb', nullable: true })
  context!: Record<string, string> | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;
}
