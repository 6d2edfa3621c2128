import type { License } from '@custodian/console-client';

const DAY_MS = 86_400_000;

/** When a licence ends: the end (UTC) of its last valid day, as the register counts it. */
export function endsAt(expiresOn: string): Date {
  const [year, month, day] = expiresOn.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1));
}

export type ExpiryTone = 'none' | 'ok' | 'soon' | 'expired';

/**
 * The expiry badge of a licence at `now`: none without a date; expired once it ended; soon
 * within `soonDays` (the first notice threshold, 30 by default); ok otherwise.
 */
export function expiryBadge(
  license: Pick<License, 'expires_on'>,
  now: Date,
  soonDays = 30,
): { tone: ExpiryTone; text: string } {
  if (!license.expires_on) return { tone: 'none', text: 'No end date' };
  const left = (endsAt(license.expires_on).getTime() - now.getTime()) / DAY_MS;
  if (left <= 0) return { tone: 'expired', text: 'Expired' };
  const days = Math.ceil(left);
  if (days <= soonDays)
    return { tone: 'soon', text: `Ends in ${days} ${days === 1 ? 'day' : 'days'}` };
  return { tone: 'ok', text: `Until ${license.expires_on}` };
}

/** Seats in use as a share of those bought (0 to 1), or null for an unlimited licence. */
export function seatShare(license: Pick<License, 'seats' | 'seats_used'>): number | null {
  if (license.seats === null) return null;
  return Math.min(1, license.seats_used / license.seats);
}

/** "12 of 25 seats", "3 seats (unlimited)". */
export function seatsText(license: Pick<License, 'seats' | 'seats_used'>): string {
  const used = `${license.seats_used} ${license.seats_used === 1 ? 'seat' : 'seats'}`;
  return license.seats === null
    ? `${used} (unlimited)`
    : `${license.seats_used} of ${license.seats} seats`;
}
