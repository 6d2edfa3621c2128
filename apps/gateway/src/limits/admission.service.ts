import { limitRefusals } from '@custodian/observability';
import { DomainError } from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AccessRecord } from '../access/access-record';
import type { Admission, KeyAdmission } from '../access/key-admission';
import { AccessGate } from './access-gate';
import { ClientAddressLimiter } from './client-address-limiter';
import { limitHeaders, quotaMessage, rateLimitMessage } from './limit-headers';
import { secondsUntil } from './windows';

/**
 * The one place that decides whether a request may go on: the key (through the gate's single
 * Redis round trip), the plan gate, the per-minute window and the monthly quota, and the
 * per-address guard against guessed credentials (keys and invitation tokens alike).
 * Transports only apply its headers and throw its refusal.
 */
@Injectable()
export class AdmissionService implements KeyAdmission {
  private readonly logger = new Logger('Admission');

  constructor(
    private readonly gate: AccessGate,
    private readonly addresses: ClientAddressLimiter,
    private readonly db: DataSource,
    private readonly outbox: OutboxWriter,
  ) {}

  /** A request that presents an API key (`readKey` throws for a missing or malformed one). */
  async admitKey(
    readKey: () => string,
    address: string,
    countsTowardQuota: boolean,
  ): Promise<Admission> {
    let decision;
    try {
      decision = await this.gate.admit(readKey(), countsTowardQuota, () =>
        this.refuseIfBlocked(address),
      );
    } catch (error) {
      if (error instanceof AddressBlocked) return error.admission;
      if (error instanceof DomainError && error.code === 'unauthenticated') {
        return this.failedCredential(address, error);
      }
      throw error;
    }
    const { record, limits } = decision;
    // The plan gate runs on every request, ping included; its 403 carries no limit headers
    // (the plan has no limits to show).
    if (!record.apiAccess) {
      limitRefusals.inc({ plan: record.plan, reason: 'plan' });
      return {
        headers: {},
        refusal: new DomainError(
          'forbidden',
          `The ${record.plan} plan does not include API access; upgrade to the pro plan or above`,
        ),
      };
    }
    // Before the refusals: requests served while Redis was away, added back on this one, can
    // take the count to the quota and refuse it.
    if (decision.quotaReached) this.announceQuotaReached(record);
    const headers: Record<string, string> = limits ? limitHeaders(limits) : {};
    if (decision.verdict === 'rate_limited' && limits) {
      headers['retry-after'] = String(secondsUntil(limits.windowResetAt, Date.now()));
      limitRefusals.inc({ plan: record.plan, reason: 'rate_limit' });
      return { headers, refusal: new DomainError('rate_limited', rateLimitMessage(limits)) };
    }
    if (decision.verdict === 'quota_exceeded' && limits) {
      headers['retry-after'] = String(secondsUntil(limits.monthEndsAt, Date.now()));
      limitRefusals.inc({ plan: record.plan, reason: 'quota' });
      return { headers, refusal: new DomainError('rate_limited', quotaMessage(limits)) };
    }
    return { headers, record };
  }

  /**
   * A credential that is not an API key (an invitation token) is about to be checked: null
   * when the address may try, else the 429 to answer with.
   */
  async checkAddress(address: string): Promise<Admission | null> {
    const verdict = await this.addresses.check(address);
    if (!verdict?.retryAfter) return null;
    return {
      headers: { ...verdict.headers, 'retry-after': String(verdict.retryAfter) },
      refusal: this.addresses.tooManyError(),
    };
  }

  /**
   * Counts a token that failed against the address. The failure itself is answered as it is;
   * the address's next attempts meet checkAddress.
   */
  async countFailedToken(address: string): Promise<void> {
    await this.addresses.countFailure(address);
  }

  /** Counts a key that failed; the admission to answer with (the error, or 429 past the limit). */
  private async failedCredential(address: string, error: DomainError): Promise<Admission> {
    const verdict = await this.addresses.countFailure(address);
    if (!verdict) return { headers: {}, refusal: error };
    if (!verdict.retryAfter) return { headers: verdict.headers, refusal: error };
    return {
      headers: { ...verdict.headers, 'retry-after': String(verdict.retryAfter) },
      refusal: this.addresses.tooManyError(),
    };
  }

  /**
   * Before Postgres is asked about a key Redis does not know: is this address blocked? Keys
   * already cached pass; an uncached valid key from a blocked address waits out the minute
   * with the guesses (the price of not letting guesses reach Postgres).
   */
  private async refuseIfBlocked(address: string): Promise<void> {
    const blocked = await this.checkAddress(address);
    if (blocked) throw new AddressBlocked(blocked);
  }

  private announceQuotaReached(record: AccessRecord): void {
    // Only a finite quota can be reached (the gate never reports an unlimited one as reached).
    const quota = record.limits.monthlyQuota;
    if (quota === null) return;
    this.outbox
      .write(this.db.manager, record.workspaceId, 'plan.limit_reached', {
        workspace: { id: record.workspaceId, name: record.workspaceName },
        plan: record.plan,
        limit: 'monthly_quota',
        value: quota,
        key: { id: record.keyId, prefix: record.prefix },
      })
      .catch((error: unknown) => {
        this.logger.error({ err: error }, 'could not record plan.limit_reached');
      });
  }
}

/** Carries a blocked address's admission out of the gate's cold-lookup callback. */
class AddressBlocked extends Error {
  constructor(readonly admission: Admission) {
    super('client address blocked');
  }
}
