import type { DisabledReason } from '@custodian/contracts';
import { checkOneOf } from '@custodian/persistence';
import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

const DISABLED_REASONS: readonly DisabledReason[] = ['manual', 'auto'];

/** delivery.endpoints: a workspace's webhook endpoints and the events each subscribes to. */
@Entity({ schema: 'delivery', name: 'endpoints' })
@Index('endpoints_workspace', ['workspace_id'])
@Index('endpoints_workspace_url', ['workspace_id', 'url'], {
  unique: true,
  where: 'NOT duplicate_url',
})
@Check('endpoints_secret_encrypted', `secret LIKE 'v1:%'`)
@Check('endpoints_previous_secret_encrypted', `previous_secret LIKE 'v1:%'`)
@Check(
  'endpoints_previous_secret_expiry',
  `(previous_secret IS NULL) = (previous_secret_expires_at IS NULL)`,
)
@Check('endpoints_disabled_reason_check', checkOneOf('disabled_reason', DISABLED_REASONS))
@Check(
  'endpoints_disabled_state',
  `enabled = (disabled_reason IS NULL) AND enabled = (disabled_at IS NULL)`,
)
export class EndpointEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'endpoints_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  url!: string;

  /**
   * Set on endpoints that shared their workspace's URL with an older one before URLs were
   * unique per workspace (migration BoundedFanOut): kept outside the unique index until deleted.
   */
  @Column({ type: 'boolean', default: false })
  duplicate_url!: boolean;

  /** Event keys, or `*` alone for every event. */
  @Column({ type: 'text', array: true })
  events!: string[];

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  /**
   * The signing secret (`whsec_...`, shown once at creation), encrypted:
   * `v1:<key id>:<iv>:<tag>:<ciphertext>` (webhooks/signing-secrets.ts). The check keeps a
   * plain secret out even of a write that forgets to encrypt.
   */
  @Column({ type: 'text' })
  secret!: string;

  /**
   * While a rotation's overlap lasts, the secret before the current one (encrypted the same
   * way): deliveries carry its signature too until previous_secret_expires_at.
   */
  @Column({ type: 'text', nullable: true })
  previous_secret!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previous_secret_expires_at!: Date | null;

  /** A disabled endpoint gets no new deliveries; its pending ones wait (a Test ping excepted). */
  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** Why it is disabled: `manual` (a person) or `auto` (a long run of failed deliveries). */
  @Column({ type: 'text', nullable: true })
  disabled_reason!: DisabledReason | null;

  @Column({ type: 'timestamptz', nullable: true })
  disabled_at!: Date | null;

  /** Failed deliveries since the last delivered one (the run that auto-disables). */
  @Column({ type: 'integer', default: 0 })
  consecutive_failures!: number;

  /** When the run's first failed delivery finished; null while there is no run. */
  @Column({ type: 'timestamptz', nullable: true })
  failing_since!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;
}
