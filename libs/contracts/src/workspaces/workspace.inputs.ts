import { IsEmail, IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { TextLength } from '../fields/text-length';
import { PLAN_NAMES, type PlanName } from './plan.constants';

const PLAN_MESSAGE = `plan must be one of ${PLAN_NAMES.join(', ')}`;
const LIMIT_PATTERN = /^(unlimited|\d{1,12})$/;

export class CreateWorkspaceInput {
  @IsString() @TextLength(1, 200) name!: string;
  @IsIn(PLAN_NAMES, { message: PLAN_MESSAGE }) plan!: PlanName;

  /** The workspace's first member, an active owner (created in the register). */
  @IsOptional()
  @IsEmail({}, { message: 'owner_email must be an e-mail address' })
  @TextLength(undefined, 320)
  owner_email?: string;
}

export class WorkspaceRefInput {
  @IsString() @TextLength(1, 64) workspace!: string;
}

export class ChangePlanInput extends WorkspaceRefInput {
  @IsIn(PLAN_NAMES, { message: PLAN_MESSAGE }) plan!: PlanName;
}

/** Limit overrides as the CLI sends them: a whole number, `unlimited`, or `plan` to drop it. */
export class ChangeLimitsInput extends WorkspaceRefInput {
  @IsOptional()
  @Matches(/^(\d{1,9}|plan)$/, { message: 'rate_per_minute must be a whole number or plan' })
  rate_per_minute?: string;

  @IsOptional()
  @Matches(LIMIT_PATTERN, { message: 'monthly_quota must be a whole number or unlimited' })
  @ValidateIf((o: ChangeLimitsInput) => o.monthly_quota !== 'plan')
  monthly_quota?: string;

  @IsOptional()
  @ValidateIf((o: ChangeLimitsInput) => o.assets !== 'plan')
  @Matches(LIMIT_PATTERN, { message: 'assets must be a whole number, unlimited or plan' })
  assets?: string;

  @IsOptional()
  @ValidateIf((o: ChangeLimitsInput) => o.people !== 'plan')
  @Matches(LIMIT_PATTERN, { message: 'people must be a whole number, unlimited or plan' })
  people?: string;

  @IsOptional()
  @ValidateIf((o: ChangeLimitsInput) => o.seats !== 'plan')
  @Matches(LIMIT_PATTERN, { message: 'seats must be a whole number, unlimited or plan' })
  seats?: string;
}
