import type { PlanName } from '@custodian/contracts';

/** Where a key stands in its two limits after this request was counted (or refused). */
export interface LimitState {
  plan: PlanName;
  /** null: no per-minute limit (a plan or override without one). */
  ratePerMinute: number | null;
  windowUsed: number;
  windowResetAt: number;
  monthlyQuota: number | null;
  monthUsed: number;
  monthEndsAt: number;
}

/**
 * The six headers of spec section 8, for a response tied to a key. A limit that does not
 * exist reads `unlimited` (docs/decisions.md, for the quota; the same for the rate), never 0,
 * which a client would read as "stop".
 */
export function limitHeaders(state: LimitState): Record<string, string> {
  const unlimited = state.monthlyQuota === null;
  const rate = state.ratePerMinute;
  return {
    'x-ratelimit-limit': rate === null ? 'unlimited' : String(rate),
    'x-ratelimit-remaining':
      rate === null ? 'unlimited' : String(Math.max(0, rate - state.windowUsed)),
    'x-ratelimit-reset': String(state.windowResetAt),
    'x-quota-limit': unlimited ? 'unlimited' : String(state.monthlyQuota),
    'x-quota-used': String(state.monthUsed),
    'x-quota-remaining': unlimited
      ? 'unlimited'
      : String(Math.max(0, (state.monthlyQuota ?? 0) - state.monthUsed)),
  };
}

export function rateLimitMessage(state: LimitState): string {
  return `Rate limit of ${state.ratePerMinute ?? 0} requests per minute exceeded on the ${state.plan} plan`;
}

export function quotaMessage(state: LimitState): string {
  return `Monthly quota of ${state.monthlyQuota ?? 0} requests exceeded on the ${state.plan} plan`;
}
