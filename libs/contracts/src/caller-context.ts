import { Type } from 'class-transformer';
import { IsIn, IsString, ValidateNested } from 'class-validator';
import { EffectiveLimits, PLAN_NAMES, type PlanName } from './plans';

export const KEY_SCOPES = ['read', 'write'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

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
  @ValidateNested() @Type(() => EffectiveLimits) limits!: EffectiveLimits;
}
