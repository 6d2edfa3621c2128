import { KEY_SCOPES, type KeyScope } from '@custodian/contracts';
import { checkOneOf } from '@custodian/persistence';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { WorkspaceEntity } from '../workspaces/workspace.entity';

/** gateway.api_keys: a key is stored as its hash; the key itself is shown once, at creation. */
@Entity({ schema: 'gateway', name: 'api_keys' })
@Unique('api_keys_key_hash_key', ['key_hash'])
@Check('api_keys_scope_check', checkOneOf('scope', KEY_SCOPES))
@Index('api_keys_workspace', ['workspace_id'])
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'api_keys_pkey' })
  id!: string;

  @Column({ type: 'text' })
  @ForeignKey(() => WorkspaceEntity, { name: 'api_keys_workspace_id_fkey' })
  workspace_id!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text' })
  scope!: KeyScope;

  /** What lists show of the key: its first characters. */
  @Column({ type: 'text' })
  prefix!: string;

  @Column({ type: 'text' })
  key_hash!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at!: Date | null;

  /** E-mail of the console member who created it; null for the admin CLI. */
  @Column({ type: 'text', nullable: true })
  created_by!: string | null;
}
