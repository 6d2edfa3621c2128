import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { WorkspaceEntity } from '../workspaces/workspace.entity';

/**
 * gateway.cache_repairs: workspaces whose cached keys could not be rewritten after a change
 * (Redis was down); rewritten once Redis answers again.
 */
@Entity({ schema: 'gateway', name: 'cache_repairs' })
export class CacheRepairEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'cache_repairs_pkey' })
  @ForeignKey(() => WorkspaceEntity, { name: 'cache_repairs_workspace_id_fkey' })
  workspace_id!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  requested_at!: Date;
}
