import type { EntityManager } from 'typeorm';
import type { DueNotice, DueOutcome } from '../due-dates/due-date-engine';
import {
  armNotice,
  cancelNotices,
  markFired,
  type DueSubject,
} from '../due-dates/due-notice.store';
import { noticeSettings } from './notice-settings.store';

/*
 * Expiry dates on the due-date engine, the one way for every record that has one (a licence's
 * `expires_on`, an asset's `warranty_expires_on`): `<kind>.expiring` once at each of the
 * workspace's thresholds (days before, GET /settings/notices), `<kind>.expired` once at the end
 * of the day. The domains lock their row and build their payload; the dates are decided here.
 */

const DAY_MS = 86_400_000;

/** The two notice kinds of one expiry date: `license.expiring` and `license.expired`. */
export interface ExpiryKinds {
  expiring: string;
  expired: string;
}

/** When a date ends: the end (UTC) of that day, `YYYY-MM-DD`. */
export function dayEndsAt(date: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1));
}

/** Whole days from `at` to the end, rounded up (0 once it has ended). */
export function daysLeft(endsAt: Date, at: Date): number {
  return Math.max(0, Math.ceil((endsAt.getTime() - at.getTime()) / DAY_MS));
}

/**
 * The next `*.expiring` date for an end seen at `at`, with the workspace's thresholds (days):
 * the nearest threshold already reached fires at once (`at`), once, and none of the larger
 * ones (a date set 5 days ahead gets the 7-day notice, not the 30-day one too); otherwise the
 * largest threshold still ahead, at its day. Null when none is left. `passed: false` (a
 * restore) skips what was reached already, so nothing fires twice.
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
 * Arms (or cancels) the expiry notices of `about` for `expiresOn`, in the transaction of the
 * write that set it, right after its row was locked (ADR 0020): `expired` at the end of the
 * day, `expiring` at the next threshold. Null (cleared, or in the bin): none armed.
 */
export async function armExpiry(
  tx: EntityManager,
  about: DueSubject,
  kinds: ExpiryKinds,
  expiresOn: string | null,
  { now = new Date(), passed = true }: { now?: Date; passed?: boolean } = {},
): Promise<void> {
  if (expiresOn === null) {
    await cancelNotices(tx, about, kinds.expiring);
    await cancelNotices(tx, about, kinds.expired);
    return;
  }
  const endsAt = dayEndsAt(expiresOn);
  const settings = await noticeSettings(tx, about.workspaceId);
  const expiring = nextExpiring(endsAt, now, settings.expiry_days, passed);
  if (expiring) await armNotice(tx, about, kinds.expiring, expiring);
  else await cancelNotices(tx, about, kinds.expiring);
  // Already past (a date set in the past): fires at the next sweep; fired before: stays so.
  await armNotice(tx, about, kinds.expired, endsAt);
}

/** What a domain tells of its locked row: the date it holds now, or why it cannot fire. */
export type ExpiryState = { expiresOn: string } | 'busy' | 'obsolete';

/**
 * Settles one expiry notice whose record the domain has locked (`state`): fires it through
 * `publish` (days left: 0 for `expired`) when the date it was armed for is still the record's,
 * and arms the next threshold, with the settings as they are now, after an `expiring`.
 */
export async function settleExpiry(
  tx: EntityManager,
  notice: DueNotice,
  kinds: ExpiryKinds,
  state: ExpiryState,
  publish: (what: 'expiring' | 'expired', expiresOn: string, daysLeft: number) => Promise<void>,
): Promise<DueOutcome> {
  if (state === 'busy' || state === 'obsolete') return state;
  const what = notice.kind === kinds.expired ? 'expired' : 'expiring';
  const endsAt = dayEndsAt(state.expiresOn);
  const due =
    what === 'expired'
      ? endsAt.getTime() === notice.dueAt.getTime()
      : notice.dueAt.getTime() < endsAt.getTime();
  if (!due) return 'obsolete';
  const left = what === 'expired' ? 0 : daysLeft(endsAt, notice.dueAt);
  await publish(what, state.expiresOn, left);
  if (what === 'expiring') {
    const settings = await noticeSettings(tx, notice.workspaceId);
    const next = settings.expiry_days.filter((days) => days < left);
    if (next.length > 0) {
      // This notice is marked fired first: arming another date of its kind cancels the
      // armed ones, and it is still armed until the engine settles it after this handler.
      await markFired(tx, notice.id, new Date());
      await armNotice(
        tx,
        { workspaceId: notice.workspaceId, type: notice.subjectType, id: notice.subjectId },
        kinds.expiring,
        new Date(endsAt.getTime() - Math.max(...next) * DAY_MS),
      );
    }
  }
  return 'fired';
}
