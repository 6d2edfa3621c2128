import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * register.applied_requests: the id of every write request the register applied, stored in
 * the write's own transaction with the reply it gave, so that the same request handed over
 * again (a broker redelivery, a client retrying with its Idempotency-Key) is answered with
 * that reply instead of being applied twice. Rows live until `expires_at`, then are pruned.
 */
@Entity({ schema: 'register', name: 'applied_requests' })
@Index('applied_requests_expiry', ['expires_at'])
export class AppliedRequestEntity {
  /** The RPC request id: a UUID per request, or derived from (workspace, Idempotency-Key). */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'applied_requests_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  /** For an Idempotency-Key: a hash of the method, path and body the key was first used with. */
  @Column({ type: 'text', nullable: true })
  fingerprint!: string | null;

  /**
   * The reply the request got (null only inside its own uncommitted transaction); json, not
   * jsonb, so a replay has the first answer's exact key order.
   */
  @Column({ type: 'json', nullable: true })
  reply!: unknown;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz' })
  expires_at!: Date;
}
