import type { License } from '@custodian/console-client';

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
