import { SYSTEM_ACTOR, type LicenseExpiry } from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DueDateEngine, type DueNotice, type DueOutcome } from '../due-dates/due-date-engine';
import { lockNoticeSubject } from '../due-dates/due-notice.store';
import {
  armExpiry,
  settleExpiry,
  type ExpiryKinds,
  type ExpiryState,
} from '../notices/expiry-notices';
import { findLicenseRow, toLicense } from './license.store';

export const LICENSE_EXPIRING = 'license.expiring';
export const LICENSE_EXPIRED = 'license.expired';
const KINDS: ExpiryKinds = { expiring: LICENSE_EXPIRING, expired: LICENSE_EXPIRED };

/**
 * Arms (or cancels) a licence's expiry notices for its `expires_on`, in the transaction of the
 * write that set it, right after its row was locked (ADR 0020). Null (cleared, or in the bin):
 * none.
 */
export function armLicenseExpiry(
  tx: EntityManager,
  workspaceId: string,
  licenseId: string,
  expiresOn: string | null,
  options: { now?: Date; passed?: boolean } = {},
): Promise<void> {
  return armExpiry(tx, { workspaceId, type: 'license', id: licenseId }, KINDS, expiresOn, options);
}

/**
 * The licence's dates on the due-date engine (notices/expiry-notices.ts), each fired once:
 * `license.expiring` at each threshold, `license.expired` at the end of `expires_on`. A notice
 * whose licence moved on (in the bin, date cleared or changed) is obsolete.
 */
@Injectable()
export class LicenseExpiryDueDates implements OnModuleInit {
  constructor(
    private readonly engine: DueDateEngine,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
  ) {}

  onModuleInit(): void {
    this.engine.handle(LICENSE_EXPIRING, (tx, notice) => this.fire(tx, notice));
    this.engine.handle(LICENSE_EXPIRED, (tx, notice) => this.fire(tx, notice));
  }

  async fire(tx: EntityManager, notice: DueNotice): Promise<DueOutcome> {
    const workspaceId = notice.workspaceId;
    return settleExpiry(tx, notice, KINDS, await lockExpiry(tx, notice), async (what, on, left) => {
      const license = toLicense(await findLicenseRow(tx, workspaceId, notice.subjectId));
      const data: LicenseExpiry = { license, expires_on: on, days_left: left };
      await this.outbox.write(tx, workspaceId, `license.${what}`, data);
      await this.activity.record(tx, workspaceId, {
        source: 'system',
        actor: SYSTEM_ACTOR,
        recordType: 'license',
        recordId: license.id,
        recordName: license.name,
        action: what,
        relatedId: null,
        relatedName: null,
        changes: [{ field: 'days_left', from: null, to: String(left) }],
      });
    });
  }
}

/** The licence's row, locked (busy when a write holds it), and its date. */
async function lockExpiry(tx: EntityManager, notice: DueNotice): Promise<ExpiryState> {
  const locked = await lockNoticeSubject<{ expires_on: string | null; deleted_at: Date | null }>(
    tx,
    notice,
    'register.licenses',
    `to_char(expires_on, 'YYYY-MM-DD') AS expires_on, deleted_at`,
  );
  if (typeof locked === 'string') return locked;
  if (locked.deleted_at !== null || locked.expires_on === null) return 'obsolete';
  return { expiresOn: locked.expires_on };
}
