import type { PlanName } from '@custodian/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** gateway.plans: the plan catalog, written by the first migration from libs/plans. */
@Entity({ schema: 'gateway', name: 'plans' })
export class PlanEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'plans_pkey' })
  name!: PlanName;

  @Column({ type: 'boolean' })
  api_access!: boolean;

  /** Every limit: null is unlimited. */
  @Column({ type: 'integer', nullable: true })
  rate_per_minute!: number | null;

  /** bigint: Postgres sends it as text. */
  @Column({ type: 'bigint', nullable: true })
  monthly_quota!: string | null;

  @Column({ type: 'integer', nullable: true })
  assets!: number | null;

  @Column({ type: 'integer', nullable: true })
  people!: number | null;

  @Column({ type: 'integer', nullable: true })
  seats!: number | null;
}
