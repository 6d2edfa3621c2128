import {
  MEMBER_ROLES,
  MEMBER_STATUSES,
  type MemberRole,
  type MemberStatus,
} from '@custodian/contracts';
import { checkOneOf } from '@custodian/persistence';
import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** register.members: the logins of a workspace (not people records). */
@Entity({ schema: 'register', name: 'members' })
@Check('members_role_check', checkOneOf('role', MEMBER_ROLES))
@Check('members_status_check', checkOneOf('status', MEMBER_STATUSES))
@Index('members_workspace_order', ['workspace_id', 'created_at', 'id'])
// UNIQUE (workspace_id, lower(email)): an expression index, which TypeORM cannot declare.
@Index('members_workspace_email', { synchronize: false })
// (lower(email)): an e-mail's memberships across workspaces, for console sign-in.
@Index('members_email', { synchronize: false })
export class MemberEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'members_pkey' })
  id!: string;

  @Column({ type: 'text' })
  workspace_id!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text' })
  role!: MemberRole;

  @Column({ type: 'text' })
  status!: MemberStatus;

  @Column({ type: 'timestamptz', nullable: true })
  invited_at!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  joined_at!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}
