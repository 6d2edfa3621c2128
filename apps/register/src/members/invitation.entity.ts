import { Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { MemberEntity } from './member.entity';

/** register.invitations: the links that make an invited member active. */
@Entity({ schema: 'register', name: 'invitations' })
@Unique('invitations_token', ['token'])
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

  @Column({ type: 'text' })
  token!: string;

  @Column({ type: 'timestamptz' })
  expires_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  accepted_at!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;
}
