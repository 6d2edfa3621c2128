import type { Audit, AuditScan } from '@custodian/console-client';

export const AUDIT_STATUS_LABEL: Record<Audit['status'], string> = {
  starting: 'Starting',
  open: 'Open',
  completing: 'Completing',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

export const AUDIT_STATUS_BADGE: Record<Audit['status'], string> = {
  starting: 'badge-pending',
  open: 'badge-on',
  completing: 'badge-pending',
  completed: 'badge-off',
  cancelled: 'badge-off',
};

/** The tabs of the list: every audit, or one status. */
export const AUDIT_LIST_STATUSES = ['open', 'completed', 'cancelled'] as const;

export function isAuditStatus(value: string | null): value is Audit['status'] {
  return value !== null && value in AUDIT_STATUS_LABEL;
}

/** While a job runs or scans come in, the page reads the audit again every few seconds. */
export function isLive(status: Audit['status']): boolean {
  return status === 'starting' || status === 'open' || status === 'completing';
}

/** What an audit covers, in words. */
export function scopeText(
  audit: Pick<Audit, 'location' | 'include_children' | 'category' | 'asset_count'>,
): string {
  if (audit.location) {
    return audit.include_children
      ? `${audit.location.name} and the places in it`
      : audit.location.name;
  }
  if (audit.category) return `Category ${audit.category.name}`;
  const count = audit.asset_count ?? 0;
  return `${count} listed ${count === 1 ? 'asset' : 'assets'}`;
}

/** What a scan found, as the scanner's line says it. */
export function outcomeText(scan: Pick<AuditScan, 'outcome' | 'repeated' | 'location'>): string {
  if (scan.repeated) return 'already scanned in this audit';
  if (scan.outcome === 'found') return 'found';
  if (scan.outcome === 'misplaced') return 'found, but not where it was recorded';
  return 'not expected in this audit';
}
