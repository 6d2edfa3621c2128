import { Check, Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';

/** register.sign_in_links: the one-time links that sign an e-mail in to the console. */
@Entity({ schema: 'register', name: 'sign_in_links' })
@Unique('sign_in_links_token_hash', ['token_hash'])
@Check('sign_in_links_token_hash_check', 'octet_length(token_hash) = 32')
@Index('sign_in_links_email', ['email_lower', 'created_at'])
@Index('sign_in_links_expiry', ['expires_at'])
export class SignInLinkEntity {
  /** A random UUID: rows are pruned by id in batches, and the hash is no name for a row. */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'sign_in_links_pkey' })
  id!: string;

  @Column({ type: 'text' })
  email_lower!: string;

  /** SHA-256 of the link's token: the e-mail carries the token, the database only this. */
  @Column({ type: 'bytea' })
  token_hash!: Buffer;

  @Column({ type: 'timestamptz' })
  expires_at!: Date;

  /** Set by the one redeem that wins; the link works no more. */
  @Column({ type: 'timestamptz', nullable: true })
  used_at!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;
}
