import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** delivery.endpoints: a workspace's webhook endpoints and the events each subscribes to. */
@Entity({ schema: 'delivery', name: 'endpoints' })
@Index('endpoints_workspace', ['workspace_id'])
@Check('endpoints_secret_encrypted', `secret LIKE 'v1:%'`)
export class EndpointEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'endpoints_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  url!: string;

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

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;
}
