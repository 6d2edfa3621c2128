import type { EffectiveLimits, LimitName } from '@custodian/contracts';

/** A workspace's overrides win over its plan's limits, limit by limit. */
export function effectiveLimits(
  plan: EffectiveLimits,
  overrides: Partial<EffectiveLimits>,
): EffectiveLimits {
  return {
    ratePerMinute: pick(plan, overrides, 'ratePerMinute'),
    monthlyQuota: pick(plan, overrides, 'monthlyQuota'),
    assets: pick(plan, overrides, 'assets'),
    people: pick(plan, overrides, 'people'),
    seats: pick(plan, overrides, 'seats'),
  };
}

function pick(plan: EffectiveLimits, overrides: Partial<EffectiveLimits>, name: LimitName) {
  return name in overrides ? (overrides[name] ?? null) : plan[name];
}

/** True when one more item would exceed the limit (`null` is unlimited). */
export function wouldExceed(limit: number | null, current: number): boolean {
  return limit !== null && current + 1 > limit;
}

const LIMIT_LABELS: Record<LimitName, string> = {
  ratePerMinute: 'Rate limit',
  monthlyQuota: 'Monthly quota',
  assets: 'Asset limit',
  people: 'People limit',
  seats: 'Seat limit',
};

/** `Asset limit of 5000 reached on the pro plan`: the message DECISIONS.md prescribes. */
export function limitReachedMessage(name: LimitName, limit: number, plan: string): string {
  return `${LIMIT_LABELS[name]} of ${limit} reached on the ${plan} plan`;
}

/** `Asset limit of 5000 nearly reached on the pro plan: 4100 used`, before the limit bites. */
export function limitNearMessage(
  name: LimitName,
  limit: number,
  plan: string,
  used: number,
): string {
  return `${LIMIT_LABELS[name]} of ${limit} nearly reached on the ${plan} plan: ${used} used`;
}
