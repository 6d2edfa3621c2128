import { LIMIT_NAMES, PLAN_NAMES, type PlanName } from './plan.constants';
import type { EffectiveLimits } from './plan.views';

/**
 * The plan facts of a workspace, as the gateway (which owns plans) states them: published
 * through its outbox with the workspace's creation and with every change of its plan or
 * limits, so the register (seat limit) and the webhook worker (API access) keep their own copy
 * and never ask the gateway back (ADR 0019). Internal: not a webhook event, never delivered.
 */
export interface WorkspacePlanFacts {
  workspace_id: string;
  plan: PlanName;
  /** Whether the plan includes the API and webhooks (Pro and above). */
  api_access: boolean;
  /** `null` is unlimited. */
  limits: EffectiveLimits;
  /**
   * The workspace's `updated_at` when these facts were stated (ISO 8601): a copy keeps the
   * newest, so facts that arrive out of order or twice change nothing.
   */
  as_of: string;
}

/** The routing key of plan facts on the events exchange; `internal.` keys are no events. */
export const PLAN_FACTS_ROUTING_KEY = 'internal.workspace.plan';

/** Whether a routing key is internal (never a webhook event). */
export function isInternalRoutingKey(key: string): boolean {
  return key.startsWith('internal.');
}

/** The apps that keep a copy of plan facts, each from a queue of its own. */
export const PLAN_FACTS_READERS = ['register', 'webhook-worker'] as const;
export type PlanFactsReader = (typeof PLAN_FACTS_READERS)[number];

/**
 * The queue an app reads plan facts from, named after the events exchange (as a test's or a
 * benchmark's stack names its own exchange, it gets its own queues). The gateway declares
 * these queues too, so that facts published before a reader's first start wait for it.
 */
export function planFactsQueueOf(exchange: string, reader: PlanFactsReader): string {
  return `${exchange}.plan-facts.${reader}`;
}

/** Plan facts checked field by field (a message off the broker), or what is wrong. */
export function parsePlanFacts(value: unknown): WorkspacePlanFacts | string {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const facts = value as Record<string, unknown>;
  if (typeof facts.workspace_id !== 'string' || facts.workspace_id === '') {
    return 'workspace_id must be a non-empty string';
  }
  if (!PLAN_NAMES.includes(facts.plan as PlanName)) {
    return `plan must be one of ${PLAN_NAMES.join(', ')}`;
  }
  if (typeof facts.api_access !== 'boolean') return 'api_access must be a boolean';
  const limits = facts.limits as Record<string, unknown> | null;
  if (typeof limits !== 'object' || limits === null) return 'limits must be an object';
  for (const name of LIMIT_NAMES) {
    const limit = limits[name];
    if (limit !== null && !(Number.isInteger(limit) && (limit as number) >= 0)) {
      return `limits.${name} must be a non-negative integer or null`;
    }
  }
  if (typeof facts.as_of !== 'string' || Number.isNaN(Date.parse(facts.as_of))) {
    return 'as_of must be an ISO 8601 timestamp';
  }
  return facts as unknown as WorkspacePlanFacts;
}
