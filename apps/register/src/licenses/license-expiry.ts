import { SYSTEM_ACTOR, type LicenseExpiry } from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog, queryRows } from '@custodian/persistence';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DueDateEngine, type DueNotice, type DueOutcome } from '../due-dates/due-date-engine';
import {
  armNotice,
  cancelNotices,
  markFired,
  type DueSubject,
} from '../due-dates/due-notice.store';
import { noticeSettings } from '../notices/notice-settings.store';
import { findLicenseRow, toLicense } from './license.store';

export const LICENSE_EXPIRING = 'license.expiring';
export const LICENSE_EXPIRED = 'license.expired';

const DAY_MS = 86_400_000;

function subject(workspaceId: string, licenseId: string): DueSubject {
  return { workspaceId, type: 'license', id: licenseId };
}

/** When a licence ends: the end (UTC) of its last valid day, `expires_on`. */
export function licenseEndsAt(expiresOn: string): Date {
  const [year, month, day] = expiresOn.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1));
}

/** Whole days from `at` to the end, rounded up (0 once it has ended). */
export function daysLeft(endsAt: Date, at: Date): number {
  return Math.max(0, Math.ceil((endsAt.getTime() - at.getTime()) / DAY_MS));
}

/**
 * The next `license.expiring` date for an end seen at `at`, with the workspace's thresholds
 * (days): the nearest threshold already reached fires at once (`at`), once, and none of the
 * larger ones (a date set 5 days ahead gets the 7-day notice, not the 30-day one too);
 * otherwise the largest threshold still ahead, at its day. Null when none is left.
 * `passed: false` (a restore) skips what was reached already, so nothing fires twice.
 */
export function nextExpiring(
  endsAt: Date,
  at: Date,
  thresholds: readonly number[],
  passed = true,
): Date | null {
  if (endsAt.getTime() <= at.getTime()) return null;
  const left = (endsAt.getTime() - at.getTime()) / DAY_MS;
  if (passed && thresholds.some((days) => days >= left)) return at;
  const ahead = thresholds.filter((days) => days < left);
  if (ahead.length === 0) return null;
  return new Date(endsAt.getTime() - Math.max(...ahead) * DAY_MS);
}

/**
 * Arms (or cancels) a licence's expiry notices for its `expires_on`, in the transaction of the
 * write that set it, right after its row was locked (ADR 0020): `license.expired` at the end of
 * the day, `license.expiring` at the next threshold. Null (cleared, or in the bin): none.
 */
export async function armLicenseExpiry(
  tx: EntityManager,
  workspaceId: string,
  licenseId: string,
  expiresOn: string | null,
  { now = new Date(), passed = true }: { now?: Date; passed?: boolean } = {},
): Promise<void> {
  const about = subject(workspaceId, licenseId);
  if (expiresOn === null) {
    await cancelNotices(tx, about);
    return;
  }
  const endsAt = licenseEndsAt(expiresOn);
  const settings = await noticeSettings(tx, workspaceId);
  const expiring = nextExpiring(endsAt, now, settings.expiry_days, passed);
  if (expiring) await armNotice(tx, about, LICENSE_EXPIRING, expiring);
  else await cancelNotices(tx, about, LICENSE_EXPIRING);
  // Already past (a date set in the past): fires at the next sweep; fired before: stays so.
  await armNotice(tx, about, LICENSE_EXPIRED, endsAt);
}

/**
 * The licence's dates on the due-date engine, each fired once: `license.expiring` at each
 * threshold (the next one armed as one fires, in its transaction), `license.expired` at the
 * end of `expires_on`. A notice whose licence moved on (in the bin, date cleared or changed)
 * is obsolete.
 */
@Injectable()
export class LicenseExpiryDueDates implements OnModuleInit {
  constructor(
    private readonly engine: DueDateEngine,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
  ) {}

  onModuleInit(): void {
    this.engine.handle(LICENSE_EXPIRING, (tx, notice) => this.fire(tx, notice, 'expiring'));
    this.engine.handle(LICENSE_EXPIRED, (tx, notice) => this.fire(tx, notice, 'expired'));
  }

  async fire(
    tx: EntityManager,
    notice: DueNotice,
    what: 'expiring' | 'expired',
  ): Promise<DueOutcome> {
    const workspaceId = notice.workspaceId;
    const [locked] = await queryRows<{ expires_on: string | null; deleted_at: Date | null }>(
      tx,
      `SELECT to_char(expires_on, 'YYYY-MM-DD') AS expires_on, deleted_at FROM register.licenses
        WHERE id = $1 AND workspace_id = $2 FOR UPDATE SKIP LOCKED`,
      [notice.subjectId, workspaceId],
    );
    if (!locked) {
      const [exists] = await queryRows<{ id: string }>(
        tx,
        `SELECT id FROM register.licenses WHERE id = $1 AND workspace_id = $2`,
        [notice.subjectId, workspaceId],
      );
      return exists ? 'busy' : 'obsolete';
    }
    if (locked.deleted_at !== null || locked.expires_on === null) return 'obsolete';
    const endsAt = licenseEndsAt(locked.expires_on);
    const due =
      what === 'expired'
        ? endsAt.getTime() === notice.dueAt.getTime()
        : notice.dueAt.getTime() < endsAt.getTime();
    if (!due) return 'obsolete';
    const license = toLicense(await findLicenseRow(tx, workspaceId, notice.subjectId));
    const left = what === 'expired' ? 0 : daysLeft(endsAt, notice.dueAt);
    const data: LicenseExpiry = { license, expires_on: locked.expires_on, days_left: left };
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
    if (what === 'expiring') {
      // The next threshold, with the settings as they are now; this one has fired.
      const settings = await noticeSettings(tx, workspaceId);
      const next = settings.expiry_days.filter((days) => days < left);
      if (next.length > 0) {
        // This notice is marked fired first: arming another date of its kind cancels the
        // armed ones, and it is still armed until the engine settles it after this handler.
        await markFired(tx, notice.id, new Date());
        await armNotice(
          tx,
          subject(workspaceId, license.id),
          LICENSE_EXPIRING,
          new Date(endsAt.getTime() - Math.max(...next) * DAY_MS),
        );
      }
    }
    return 'fired';
  }
}
