import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, Min, ValidateIf, ValidateNested } from 'class-validator';
import { PLAN_NAMES, type EffectiveLimits, type PlanName } from './plans';

export const KEY_SCOPES = ['read', 'write'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

const limit = () => (target: object, property: string) => {
  ValidateIf((limits: Record<string, unknown>) => limits[property] !== null)(target, property);
  IsInt()(target, property);
  Min(0)(target, property);
};

/** A workspace's effective limits as they travel with a caller; `null` is unlimited. */
export class CallerLimits implements EffectiveLimits {
  @limit() ratePerMinute!: number | null;
  @limit() monthlyQuota!: number | null;
  @limit() assets!: number | null;
  @limit() people!: number | null;
  @limit() seats!: number | null;
}

/**
 * Who is calling, resolved by the gateway and carried with every request to the register.
 * The register trusts it (only the gateway can publish on the request queue) but still
 * checks its shape, like every message it consumes.
 */
export class CallerContext {
  @IsString() workspaceId!: string;
  @IsString() keyId!: string;
  @IsIn(KEY_SCOPES) scope!: KeyScope;
  @IsIn(PLAN_NAMES) plan!: PlanName;
  @ValidateNested() @Type(() => CallerLimits) limits!: CallerLimits;
}
