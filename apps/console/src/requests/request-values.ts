import type { AssetRequest, AssetRequestStatus } from '@custodian/console-client';

export const REQUEST_STATUSES: readonly AssetRequestStatus[] = ['pending', 'approved', 'rejected'];

export const REQUEST_STATUS_LABEL: Record<AssetRequestStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** The badge a status wears: waiting (amber), approved (green), rejected (red). */
export const REQUEST_STATUS_BADGE: Record<AssetRequestStatus, string> = {
  pending: 'badge-pending',
  approved: 'badge-delivered',
  rejected: 'badge-failed',
};

export function isRequestStatus(value: string | null): value is AssetRequestStatus {
  return value !== null && (REQUEST_STATUSES as readonly string[]).includes(value);
}

/** What was asked for, as a person reads it: the asset, or "Any Cameras". */
export function requestSubject(request: Pick<AssetRequest, 'asset' | 'category'>): string {
  if (request.asset) return `${request.asset.name} (${request.asset.asset_tag})`;
  return `Any ${request.category?.name ?? 'asset'}`;
}

/** How an approval meets the request unless the manager says otherwise (as the API does). */
export function defaultFulfilment(
  request: Pick<AssetRequest, 'starts_at'>,
): 'check_out' | 'booking' {
  return request.starts_at ? 'booking' : 'check_out';
}

/** A `datetime-local` value (the reader's time zone) for an instant, or '' for none. */
export function localInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** The instant a `datetime-local` value means, or null when it is empty or not a date. */
export function instantOf(local: string): string | null {
  if (local === '') return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * The request's "when": both ends given, or neither ("now"); the problem in words otherwise,
 * before the API is asked.
 */
export function requestRange(
  when: 'now' | 'range',
  from: string,
  to: string,
): { starts_at: string; ends_at: string } | null | string {
  if (when === 'now') return null;
  const starts = instantOf(from);
  const ends = instantOf(to);
  if (!starts || !ends) return 'Give the first and the last day and time it is needed.';
  if (ends <= starts) return 'It must be needed until after it is needed from.';
  return { starts_at: starts, ends_at: ends };
}
