import { IsBoolean } from 'class-validator';
import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  EnumField,
  Field,
  IdField,
  IntField,
  ListField,
  NestedField,
  TextField,
  TimestampField,
} from '../fields/field.decorators';
import { PLAN_NAMES, type PlanName } from '../workspaces/plan.constants';
import { PLAN } from '../workspaces/workspace.docs';
import {
  NEAR_LIMIT_SHARE,
  USAGE_LIMITS,
  USAGE_STATES,
  type UsageLimitName,
  type UsageState,
} from './usage.constants';

const flag = (description: string) => Field({ type: 'boolean' }, [IsBoolean()], { description });

@ContractSchema({
  name: 'UsageMeter',
  description:
    'One limit and what is used of it. For the per-key limits (`per_key`), `used` is the ' +
    'busiest key: the one a refusal would meet first.',
})
export class UsageMeter {
  @EnumField(USAGE_LIMITS, { description: 'Which limit.' }) name!: UsageLimitName;

  @IntField({
    min: 0,
    nullable: true,
    description: "The workspace's effective limit (plan and overrides); null means unlimited.",
  })
  limit!: number | null;

  @IntField({
    min: 0,
    nullable: true,
    description:
      'What is used; null only for `rate_per_minute` while the gateway cannot reach Redis ' +
      '(limits are not applied then).',
  })
  used!: number | null;

  @flag('Whether the limit applies to each API key on its own.') per_key!: boolean;

  @EnumField(USAGE_STATES, {
    description: `\`reached\` at the limit, \`near\` from ${NEAR_LIMIT_SHARE * 100}% of it, else \`ok\`.`,
  })
  state!: UsageState;
}

@ContractSchema({ name: 'UsageKeyRef', description: 'An API key, as a notice names it.' })
export class UsageKeyRef {
  @IdField('key', 'Id of the key.') id!: string;
  @TextField({ nullable: true, description: 'Name given at creation.' }) name!: string | null;
  @TextField({ description: 'The first characters of the key.' }) prefix!: string;
}

@ContractSchema({
  name: 'UsageNotice',
  description:
    'A limit reached or nearly reached: what `plan.limit_reached` announces, as it stands now.',
})
export class UsageNotice {
  @EnumField(USAGE_LIMITS, { description: 'Which limit.' }) limit!: UsageLimitName;
  @EnumField(['near', 'reached'], { description: 'How close.' }) level!: 'near' | 'reached';

  @TextField({
    description: 'In words, naming the limit and the plan (and the key, for a per-key limit).',
  })
  message!: string;

  @NestedField(UsageKeyRef, {
    nullable: true,
    description: 'The key, for a per-key limit when the role may see API keys; null otherwise.',
  })
  key!: UsageKeyRef | null;
}

@ContractSchema({ name: 'KeyUsage', description: "One API key's requests." })
export class KeyUsage {
  @IdField('key', 'Id of the key.') id!: string;
  @TextField({ nullable: true, description: 'Name given at creation.' }) name!: string | null;
  @TextField({ description: 'The first characters of the key.' }) prefix!: string;
  @flag('Whether the key is revoked.') revoked!: boolean;

  @IntField({
    min: 0,
    description: 'Requests counted this month (UTC) against the quota: all but `/ping`.',
  })
  month_requests!: number;

  @IntField({
    min: 0,
    nullable: true,
    description:
      'Requests in the current minute window, `/ping` included; null while the gateway cannot ' +
      'reach Redis.',
  })
  minute_requests!: number | null;
}

@ContractSchema({ name: 'MonthUsage', description: "This calendar month's requests (UTC)." })
export class MonthUsage {
  @TextField({ pattern: '^\\d{4}-\\d{2}$', description: 'The month, `YYYY-MM`.' })
  month!: string;

  @IntField({ min: 0, nullable: true, description: 'Quota of each key; null means unlimited.' })
  quota_per_key!: number | null;

  @IntField({ min: 0, description: 'Requests of all keys together this month.' })
  used!: number;

  @TimestampField({ description: 'When the month ends and the counts start again.' })
  resets_at!: string;
}

@ContractSchema({
  name: 'MinuteWindowUsage',
  description: 'The current fixed one-minute window the rate limit counts in.',
})
export class MinuteWindowUsage {
  @IntField({
    min: 0,
    nullable: true,
    description: 'Requests per minute allowed to each key; null means unlimited.',
  })
  limit_per_key!: number | null;

  @IntField({
    min: 0,
    nullable: true,
    description:
      'Requests of all keys together in this window; null while the gateway cannot reach Redis.',
  })
  used!: number | null;

  @IntField({ min: 1, max: 60, description: 'Seconds until the window resets.' })
  resets_in_seconds!: number;

  @TimestampField({ description: 'When the window resets.' }) resets_at!: string;
}

@ContractSchema({
  name: 'PlanUsage',
  description:
    "The workspace's plan, its limits and what is used of each, and the limits reached or " +
    'nearly reached. Counts are live: the month to within the last request.',
})
export class PlanUsage {
  @EnumField(PLAN_NAMES, PLAN) plan!: PlanName;
  @flag('Whether the plan includes the API and webhooks.') api_access!: boolean;

  @ListField(UsageMeter, { description: 'One per limit, in a fixed order.' })
  meters!: UsageMeter[];

  @NestedField(MonthUsage) month!: MonthUsage;
  @NestedField(MinuteWindowUsage) minute_window!: MinuteWindowUsage;

  @flag(
    'Whether `keys` lists the keys: only for roles that may see API keys (`keys.view`); the ' +
      'totals are there for every role.',
  )
  keys_shown!: boolean;

  @ListField(KeyUsage, { description: 'Every key, revoked ones included, oldest first.' })
  keys!: KeyUsage[];

  @ListField(UsageNotice, { description: 'Limits reached first, then those nearly reached.' })
  notices!: UsageNotice[];

  @TimestampField({ description: 'When the counts were read.' }) as_of!: string;
}

/**
 * What a workspace uses of its register limits, as the register counts them (its
 * workspace_counters row): assets not deleted, people, and seats (active members).
 */
export interface WorkspaceUsageCounts {
  assets: number;
  people: number;
  seats: number;
}
