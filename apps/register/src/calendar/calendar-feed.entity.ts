import { Check, Column, Entity, ForeignKey, PrimaryColumn, Unique } from 'typeorm';
import { MemberEntity } from '../members/member.entity';

/**
 * register.calendar_feeds: a member's calendar feed URL, by the hash of its token. One per
 * member; it goes with the member.
 */
@Entity({ schema: 'register', name: 'calendar_feeds' })
@Unique('calendar_feeds_token_hash', ['token_hash'])
@Check('calendar_feeds_token_hash_check', 'octet_length(token_hash) = 32')
export class CalendarFeedEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'calendar_feeds_pkey' })
  @ForeignKey(() => MemberEntity, { name: 'calendar_feeds_member_id_fkey', onDelete: 'CASCADE' })
  member_id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  /**
   * SHA-256 of the URL's token: the member was shown the URL once, the database keeps only
   * this, and a presented token is looked up by it.
   */
  @Column({ type: 'bytea' })
  token_hash!: Buffer;

  /** When the current URL was made: regenerating resets it. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  /** The last fetch, written at most once a minute (CALENDAR_FEED_LAST_USED_PRECISION_MS). */
  @Column({ type: 'timestamptz', nullable: true })
  last_used_at!: Date | null;
}
