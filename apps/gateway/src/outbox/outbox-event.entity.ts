import type { EventKey } from '@custodian/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** gateway.outbox: events the gateway causes, published by the outbox relay. */
@Entity({ schema: 'gateway', name: 'outbox' })
@Index('outbox_unpublished', ['created_at', 'id'], { where: 'published_at IS NULL' })
export class OutboxEventEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'outbox_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  event!: EventKey;

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  published_at!: Date | null;
}
