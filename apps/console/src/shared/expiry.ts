const DAY_MS = 86_400_000;

/** When a date ends: the end (UTC) of that day, as the register counts an expiry. */
export function endsAt(expiresOn: string): Date {
  const [year, month, day] = expiresOn.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1));
}

export type ExpiryTone = 'none' | 'ok' | 'soon' | 'expired';

/**
 * The badge of an expiry date (a licence's, a warranty's) at `now`: `none` without a date;
 * expired once it ended; soon within `soonDays` (the first notice threshold, 30 by default);
 * ok otherwise.
 */
export function expiryBadge(
  expiresOn: string | null,
  now: Date,
  { soonDays = 30, none = 'No end date' }: { soonDays?: number; none?: string } = {},
): { tone: ExpiryTone; text: string } {
  if (!expiresOn) return { tone: 'none', text: none };
  const left = (endsAt(expiresOn).getTime() - now.getTime()) / DAY_MS;
  if (left <= 0) return { tone: 'expired', text: 'Expired' };
  const days = Math.ceil(left);
  if (days <= soonDays)
    return { tone: 'soon', text: `Ends in ${days} ${days === 1 ? 'day' : 'days'}` };
  return { tone: 'ok', text: `Until ${expiresOn}` };
}
