import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { MemberEntity } from './member.entity';

/** register.invitations: the links that make an invited member active. */
@Entity({ schema: 'register', name: 'invitations' })
@Unique('invitations_token_hash', ['token_hash'])
@Check('invitations_token_hash_check', 'octet_length(token_hash) = 32')
@Index('invitations_workspace_order', ['workspace_id', 'created_at', 'id'])
@Index('invitations_member', ['member_id'])
export class InvitationEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'invitations_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  @ForeignKey(() => MemberEntity, { name: 'invitations_member_id_fkey', onDelete: 'CASCADE' })
  member_id!: string;

  /**
   * SHA-256 of the token, the credential of the accept link: the e-mail carries the token,
   * the database only this, so a dump cannot accept invitations.
   */
  @Column({ type: 'bytea' })
  token_hash!: Buffer;

  @Column({ type: 'timestamptz' })
  expires_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  accepted_at!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;
}
