import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { ApiKeyEntity } from '../keys/api-key.entity';

/**
 * gateway.key_usage: a key's requests in a month, flushed from Redis every few seconds (and
 * from the gateways' ledgers while Redis is down); Redis is seeded from here after a flush or
 * a restart. Only ever raised (GREATEST).
 */
@Entity({ schema: 'gateway', name: 'key_usage' })
export class KeyUsageEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'key_usage_pkey' })
  @ForeignKey(() => ApiKeyEntity, { name: 'key_usage_key_id_fkey' })
  key_id!: string;

  /** `YYYY-MM`, UTC. */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'key_usage_pkey' })
  month!: string;

  /** bigint: Postgres sends it as text. */
  @Column({ type: 'bigint' })
  requests!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}
