import { Check, Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';

/** delivery.event_feed: one row per event consumed, at its position in the change feed. */
@Entity({ schema: 'delivery', name: 'event_feed' })
@Index('event_feed_workspace', ['workspace_id', 'position'])
@Unique('event_feed_event_id', ['event_id'])
export class EventFeedEntity {
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'event_feed_pkey' })
  position!: string;

  @Column({ type: 'text' }) event_id!: string;
  @Column({ type: 'text' }) workspace_id!: string;
  @Column({ type: 'text' }) event!: string;

  /** The envelope `{id, event, created_at, data}`, as its webhook delivers it. */
  @Column({ type: 'jsonb' }) payload!: Record<string, unknown>;

  @Column({ type: 'timestamptz', default: () => 'now()' }) stored_at!: Date;
}

/** delivery.event_feed_horizon: its one row says up to which position the feed was pruned. */
@Entity({ schema: 'delivery', name: 'event_feed_horizon' })
@Check('event_feed_horizon_one', 'id = 1')
export class EventFeedHorizonEntity {
  @PrimaryColumn({
    type: 'smallint',
    default: 1,
    primaryKeyConstraintName: 'event_feed_horizon_pkey',
  })
  id!: number;

  @Column({ type: 'bigint', default: 0 }) pruned_through!: string;
  @Column({ type: 'timestamptz', nullable: true }) pruned_at!: Date | null;
}
