import {
  NEAR_LIMIT_SHARE,
  type EffectiveLimits,
  type KeyUsage,
  type LimitName,
  type PlanName,
  type PlanUsage,
  type UsageLimitName,
  type UsageMeter,
  type UsageNotice,
  type UsageState,
  type WorkspaceUsageCounts,
} from '@custodian/contracts';
import { limitNearMessage, limitReachedMessage } from '@custodian/plans';
import { minuteWindow, secondsUntil, usageMonth } from '../../limits/windows';

/** What the report is made of, each read from the service that owns it. */
export interface UsageFacts {
  plan: PlanName;
  apiAccess: boolean;
  limits: EffectiveLimits;
  /** The register's counts. */
  counts: WorkspaceUsageCounts;
  /** Every key of the workspace with its counts, oldest first. */
  keys: KeyUsage[];
  /** Whether the reader's role may see API keys (keys.view). */
  keysShown: boolean;
  nowMs: number;
}

const LIMIT_NAMES: Record<UsageLimitName, LimitName> = {
  assets: 'assets',
  people: 'people',
  seats: 'seats',
  monthly_quota: 'monthlyQuota',
  rate_per_minute: 'ratePerMinute',
};

export function usageState(limit: number | null, used: number | null): UsageState {
  if (limit === null || used === null) return 'ok';
  if (used >= limit) return 'reached';
  return used >= limit * NEAR_LIMIT_SHARE ? 'near' : 'ok';
}

/**
 * The Plan and usage answer. The per-key limits are measured on the keys still in use: a
 * revoked key's count no longer decides whether a request is refused, though it still counts
 * in the month's total.
 */
export function usageReport(facts: UsageFacts): PlanUsage {
  const { limits, counts, nowMs } = facts;
  const active = facts.keys.filter((key) => !key.revoked);
  const busiestMonth = Math.max(0, ...active.map((key) => key.month_requests));
  const minuteKnown = facts.keys.every((key) => key.minute_requests !== null);
  const busiestMinute = minuteKnown
    ? Math.max(0, ...active.map((key) => key.minute_requests ?? 0))
    : null;
  const meters: UsageMeter[] = [
    meter('assets', limits.assets, counts.assets, false),
    meter('people', limits.people, counts.people, false),
    meter('seats', limits.seats, counts.seats, false),
    meter('monthly_quota', limits.monthlyQuota, busiestMonth, true),
    meter('rate_per_minute', limits.ratePerMinute, busiestMinute, true),
  ];
  const month = usageMonth(nowMs);
  const window = minuteWindow(nowMs);
  return {
    plan: facts.plan,
    api_access: facts.apiAccess,
    meters,
    month: {
      month: month.id,
      quota_per_key: limits.monthlyQuota,
      used: facts.keys.reduce((sum, key) => sum + key.month_requests, 0),
      resets_at: new Date(month.endsAt * 1000).toISOString(),
    },
    minute_window: {
      limit_per_key: limits.ratePerMinute,
      used: minuteKnown
        ? facts.keys.reduce((sum, key) => sum + (key.minute_requests ?? 0), 0)
        : null,
      resets_in_seconds: secondsUntil(window.resetAt, nowMs),
      resets_at: new Date(window.resetAt * 1000).toISOString(),
    },
    keys_shown: facts.keysShown,
    keys: facts.keysShown ? facts.keys : [],
    notices: notices(facts, meters, active),
    as_of: new Date(nowMs).toISOString(),
  };
}

function meter(
  name: UsageLimitName,
  limit: number | null,
  used: number | null,
  perKey: boolean,
): UsageMeter {
  return { name, limit, used, per_key: perKey, state: usageState(limit, used) };
}

/**
 * A notice per register limit reached or near, and per key at or near a request limit. The
 * request limits say nothing on a plan without API access: the plan gate refuses every
 * request before they would.
 */
function notices(facts: UsageFacts, meters: UsageMeter[], active: KeyUsage[]): UsageNotice[] {
  const found: UsageNotice[] = [];
  for (const { name, limit, used, per_key } of meters) {
    if (limit === null) continue;
    if (!per_key) {
      if (used !== null) found.push(...notice(facts, name, limit, used, null));
      continue;
    }
    if (!facts.apiAccess) continue;
    for (const key of active) {
      const keyUsed = name === 'monthly_quota' ? key.month_requests : key.minute_requests;
      if (keyUsed !== null) found.push(...notice(facts, name, limit, keyUsed, key));
    }
  }
  // Reached before near, each in the meters' order (a stable sort keeps it).
  return found.sort((a, b) => Number(b.level === 'reached') - Number(a.level === 'reached'));
}

function notice(
  facts: UsageFacts,
  name: UsageLimitName,
  limit: number,
  used: number,
  key: KeyUsage | null,
): UsageNotice[] {
  const state = usageState(limit, used);
  if (state === 'ok') return [];
  const limitName = LIMIT_NAMES[name];
  let message =
    state === 'reached'
      ? limitReachedMessage(limitName, limit, facts.plan)
      : limitNearMessage(limitName, limit, facts.plan, used);
  if (name === 'rate_per_minute') message += ' this minute';
  if (key) message = `${facts.keysShown ? `Key ${keyLabel(key)}` : 'An API key'}: ${message}`;
  return [
    {
      limit: name,
      level: state,
      message,
      key: key && facts.keysShown ? { id: key.id, name: key.name, prefix: key.prefix } : null,
    },
  ];
}

function keyLabel(key: KeyUsage): string {
  return key.name === null ? `${key.prefix}…` : `“${key.name}” (${key.prefix}…)`;
}
