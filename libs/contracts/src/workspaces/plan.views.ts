import { ContractSchema } from '../fields/contract-schema.decorator';
import { IntField } from '../fields/field.decorators';

const limit = (description: string) =>
  IntField({ min: 0, nullable: true, description: `${description}; null means unlimited.` });

/** Limits after applying a workspace's overrides to its plan; `null` means unlimited. */
@ContractSchema({
  name: 'EffectiveLimits',
  description: "The workspace's effective limits: its plan's, with its overrides applied.",
})
export class EffectiveLimits {
  @limit('Requests per minute per key') ratePerMinute!: number | null;
  @limit('Requests per calendar month (UTC) per key') monthlyQuota!: number | null;
  @limit('Assets') assets!: number | null;
  @limit('People') people!: number | null;
  @limit('Member seats (active members)') seats!: number | null;
}

export type LimitName = keyof EffectiveLimits;
