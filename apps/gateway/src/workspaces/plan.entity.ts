import type { EffectiveLimits, PlanName } from '@custodian/contracts';
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

/** A plan row's limits as the rest of the code counts them (the quota arrives as text). */
export function planLimits(row: Omit<PlanEntity, 'name' | 'api_access'>): EffectiveLimits {
  return {
    ratePerMinute: row.rate_per_minute,
    monthlyQuota: row.monthly_quota === null ? null : Number(row.monthly_quota),
    assets: row.assets,
    people: row.people,
    seats: row.seats,
  };
}
