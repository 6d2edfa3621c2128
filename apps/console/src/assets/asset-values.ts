import type { Asset, AssetCondition, AssetStatus } from '@custodian/console-client';
import { ASSET_CONDITIONS, ASSET_STATUSES } from '@custodian/contracts/constants';

// The values the API accepts (the contract's own lists), as a person reads them. `satisfies`
// ties each list to the generated schema: a value the API drops stops compiling here.

export const STATUSES = ASSET_STATUSES satisfies readonly AssetStatus[];

export const STATUS_LABEL: Record<AssetStatus, string> = {
  active: 'Active',
  maintenance: 'In maintenance',
  retired: 'Retired',
  lost: 'Lost',
  stolen: 'Stolen',
  inactive: 'Inactive',
};

export const CONDITIONS = ASSET_CONDITIONS satisfies readonly AssetCondition[];

export const CONDITION_LABEL: Record<AssetCondition, string> = {
  new: 'New',
  good: 'Good',
  fair: 'Fair',
  poor: 'Poor',
  broken: 'Broken',
};

export function isStatus(value: string | null): value is AssetStatus {
  return (STATUSES as readonly string[]).includes(value ?? '');
}

/**
 * A `datetime-local` input's value (the reader's local time, no zone) as the instant the API
 * takes; empty is no due date. Null when the browser's value is not a date.
 */
export function dueDateToSend(local: string): string | null {
  if (local === '') return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A `datetime-local` value for a moment `days` from `now`, at 17:00 local time. */
export function defaultDueDate(now: Date, days = 14): string {
  const due = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, 17, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${due.getFullYear()}-${pad(due.getMonth() + 1)}-${pad(due.getDate())}T17:00`;
}

/** The console's address of an asset: what its label's QR code opens. */
export function assetLink(origin: string, id: string): string {
  return `${origin}/console/assets/${encodeURIComponent(id)}`;
}

/** One field two versions of an asset disagree on, as a person reads it. */
export interface AssetDifference {
  label: string;
  before: string;
  after: string;
}

const NONE = '—';

/**
 * What changed between the version a form was opened on and the one saved since (someone
 * else's change, refused by If-Match): the fields a person edits, in the form's order, and
 * custom fields by name. Bookkeeping (updated_at, scans, seats) is left out.
 */
export function assetDifferences(before: Asset, after: Asset): AssetDifference[] {
  const shown = (asset: Asset): Array<[string, string]> => [
    ['Name', asset.name],
    ['Asset tag', asset.asset_tag],
    ['Serial number', asset.serial_number ?? NONE],
    ['Brand', asset.brand ?? NONE],
    ['Model', asset.model ?? NONE],
    ['SKU', asset.sku ?? NONE],
    ['Category', asset.category?.name ?? NONE],
    ['Location', asset.location?.name ?? NONE],
    ['Status', STATUS_LABEL[asset.status]],
    ['Condition', asset.condition ? CONDITION_LABEL[asset.condition] : NONE],
    ['Purchase date', asset.purchase_date ?? NONE],
    ['Warranty ends', asset.warranty_expires_on ?? NONE],
    ['Checked out to', asset.assigned_to?.name ?? NONE],
  ];
  const was = shown(before);
  const differences = shown(after).flatMap(([label, value], i) =>
    value === was[i]?.[1] ? [] : [{ label, before: was[i]?.[1] ?? NONE, after: value }],
  );
  const keys = new Set([
    ...Object.keys(before.custom_fields ?? {}),
    ...Object.keys(after.custom_fields ?? {}),
  ]);
  for (const key of [...keys].sort()) {
    const from = customText(before.custom_fields?.[key]);
    const to = customText(after.custom_fields?.[key]);
    if (from !== to) differences.push({ label: key, before: from, after: to });
  }
  return differences;
}

function customText(value: unknown): string {
  if (value === undefined || value === null || value === '') return NONE;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
