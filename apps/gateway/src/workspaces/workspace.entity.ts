import type { EffectiveLimits, PlanName } from '@custodian/contracts';
import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { PlanEntity } from './plan.entity';

/** gateway.workspaces: a workspace, its plan and the limits it overrides. */
@Entity({ schema: 'gateway', name: 'workspaces' })
export class WorkspaceEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'workspaces_pkey' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  @ForeignKey(() => PlanEntity, { name: 'workspaces_plan_fkey' })
  plan!: PlanName;

  /** The plan's limits this workspace replaces (a null value: unlimited). */
  @Column({ type: 'jsonb', default: {} })
  overrides!: Partial<EffectiveLimits>;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}
