import { ValidateBy, type ValidationOptions } from 'class-validator';
import { KEY_SCOPES, type KeyScope } from '../workspaces/key.constants';
import { LIMIT_NAMES, PLAN_NAMES, type PlanName } from '../workspaces/plan.constants';
import type { EffectiveLimits } from '../workspaces/plan.views';

const CALLER_FIELDS = ['workspaceId', 'keyId', 'scope', 'plan', 'limits'] as const;

/**
 * Who is calling, resolved by the gateway and carried with every request to the register.
 * The register trusts it (only the gateway can publish on the request queue) but still checks
 * its shape, like every message it consumes (`@IsCallerContext`).
 */
export class CallerContext {
  workspaceId!: string;
  keyId!: string;
  scope!: KeyScope;
  plan!: PlanName;
  /** `null` is unlimited. */
  limits!: EffectiveLimits;
  /**
   * Who the activity feed names: the key's name (its prefix when unnamed) or the console
   * member's e-mail. Optional so that a register of this version takes a caller from a gateway
   * of the version before (rolling deploys); the feed then names no one.
   */
  actorName?: string;
}

/** The key id of a console call: no key, the member it acts for (`console:<member id>`). */
export const CONSOLE_KEY_PREFIX = 'console:';

/**
 * The caller of a message, checked field by field in plain code: it rides on every request
 * of the register's queue, reads included, and class-validator's nested validation of it cost
 * more than the rest of a single fetch's validation together.
 */
export function IsCallerContext(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCallerContext',
      validator: {
        validate: (value: unknown) => isCallerContext(value),
        defaultMessage: () =>
          'caller must be {workspaceId, keyId, scope, plan, limits, actorName?} as the gateway sends it',
      },
    },
    options,
  );
}

export function isCallerContext(value: unknown): value is CallerContext {
  if (!isRecord(value)) return false;
  const named = Object.hasOwn(value, 'actorName');
  if (!hasExactly(value, named ? [...CALLER_FIELDS, 'actorName'] : CALLER_FIELDS)) return false;
  const { workspaceId, keyId, scope, plan, limits, actorName } = value;
  return (
    (!named || (typeof actorName === 'string' && actorName.length <= 320)) &&
    typeof workspaceId === 'string' &&
    workspaceId !== '' &&
    typeof keyId === 'string' &&
    (KEY_SCOPES as readonly unknown[]).includes(scope) &&
    (PLAN_NAMES as readonly unknown[]).includes(plan) &&
    isRecord(limits) &&
    hasExactly(limits, LIMIT_NAMES) &&
    LIMIT_NAMES.every((name) => {
      const limit = limits[name];
      return limit === null || (Number.isSafeInteger(limit) && (limit as number) >= 0);
    })
  );
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A plain object whose own keys are exactly `names`. */
export function hasExactly(value: Record<string, unknown>, names: readonly string[]): boolean {
  const keys = Object.keys(value);
  return keys.length === names.length && names.every((name) => Object.hasOwn(value, name));
}
