import type { ActivityEntry } from '@custodian/console-client';

/** Who made a change, as a person reads it. */
export function actorText(entry: ActivityEntry): string {
  const { actor } = entry;
  if (actor.type === 'key') return `API key ${actor.name ?? actor.id ?? ''}`.trim();
  if (actor.type === 'member') return actor.name ?? 'A member';
  return entry.source === 'cli' ? 'Admin CLI' : 'System';
}

const VERBS: Record<string, string> = {
  created: 'created',
  updated: 'changed',
  deleted: 'deleted',
  restored: 'restored',
  purged: 'purged from the bin',
  cancelled: 'cancelled',
  confirmed: 'confirmed',
  rejected: 'rejected',
  completed: 'completed',
  no_show: 'marked as not picked up',
  scanned: 'scanned',
  checked_out: 'checked out',
  checked_in: 'checked in',
  overdue: 'marked overdue',
  offboarded: 'offboarded',
  invited: 'invited',
  invitation_resent: 'sent a new invitation to',
  invitation_cancelled: 'cancelled the invitation of',
  joined: 'joined the workspace',
  role_changed: 'changed the role of',
  removed: 'removed',
  revoked: 'revoked',
  secret_rotated: 'rotated the signing secret of',
  disabled: 'disabled',
  enabled: 'enabled',
  key_revealed: 'revealed the product key of',
  seat_assigned: 'assigned a seat of',
  seat_released: 'released a seat of',
  expiring: 'noted the coming end of',
  expired: 'noted the end of',
  warranty_expiring: 'noted the coming end of the warranty of',
  warranty_expired: 'noted the end of the warranty of',
  approved: 'approved',
  resolved: 'resolved',
  due: 'sent',
  started: 'started',
};

const NOUNS: Record<ActivityEntry['record_type'], string> = {
  asset: 'asset',
  person: 'person',
  member: 'member',
  key: 'API key',
  endpoint: 'webhook endpoint',
  booking: 'booking',
  license: 'licence',
  request: 'asset request',
  maintenance: 'maintenance record',
  reminder: 'reminder',
  location: 'location',
  category: 'category',
  audit: 'audit',
};

/** "checked out", "changed the role of": the action as a verb phrase. */
export function verbOf(entry: ActivityEntry): string {
  return VERBS[entry.action] ?? entry.action.replace(/_/g, ' ');
}

export function nounOf(entry: ActivityEntry): string {
  return NOUNS[entry.record_type];
}

/**
 * How the person concerned joins the sentence: "checked out to", "checked in from"; a booking
 * is for its person ("confirmed booking Camera for Ada"); a maintenance record is on its asset.
 */
export function relatedWord(
  entry: Pick<ActivityEntry, 'action' | 'record_type'> & Partial<Pick<ActivityEntry, 'related_id'>>,
): string {
  // An asset moved or marked lost by an audit's completion: "changed asset Laptop, by audit Q4".
  if (entry.related_id?.startsWith('aud_')) return ', by audit ';
  // A row of a CSV import: "created person Ada, by import people.csv".
  if (entry.related_id?.startsWith('imp_')) return ', by import ';
  if (entry.record_type === 'booking') return ' for ';
  if (entry.record_type === 'maintenance') return ' on ';
  // A reminder is about its record: "created reminder Service about Forklift".
  if (entry.record_type === 'reminder') return ' about ';
  // A place is in its parent: "created location Room 101 in Floor 1".
  if (entry.record_type === 'location') return ' in ';
  if (entry.action === 'checked_in') return ' from ';
  if (entry.action === 'overdue') return ', held by ';
  return ' to ';
}

/** The console page of the record an entry is about, when it has one. */
export function recordLink(entry: ActivityEntry): string | null {
  switch (entry.record_type) {
    case 'asset':
      return entry.action === 'deleted' || entry.action === 'purged'
        ? null
        : `/assets/${entry.record_id}`;
    case 'person':
      return `/people/${entry.record_id}`;
    case 'endpoint':
      return entry.action === 'deleted' ? null : `/webhooks/${entry.record_id}`;
    case 'key':
      return '/keys';
    case 'member':
      return entry.action === 'removed' || entry.action === 'invitation_cancelled'
        ? null
        : '/members';
    case 'booking':
      // Bookings are never deleted: a cancelled or rejected one keeps its page.
      return `/bookings/${entry.record_id}`;
    case 'license':
      return entry.action === 'deleted' ? null : `/licenses/${entry.record_id}`;
    case 'request':
      return `/requests/${entry.record_id}`;
    case 'maintenance':
      // A record has no page of its own: its asset's page lists it.
      return entry.related_id ? `/assets/${entry.related_id}` : '/maintenance';
    case 'reminder':
      return `/reminders/${entry.record_id}`;
    case 'location':
      return entry.action === 'deleted' ? null : `/locations/${entry.record_id}`;
    case 'category':
      return '/categories';
    case 'audit':
      return `/audits/${entry.record_id}`;
  }
}

/**
 * The console page of the related record, by its id's prefix: an asset (a maintenance record's,
 * a reminder's), a licence (a reminder's), a location (a place's parent), an audit or an import
 * (what they changed), else a person.
 */
export function relatedLink(entry: Pick<ActivityEntry, 'related_id'>): string {
  const id = entry.related_id ?? '';
  if (id.startsWith('ast_')) return `/assets/${id}`;
  if (id.startsWith('lic_')) return `/licenses/${id}`;
  if (id.startsWith('loc_')) return `/locations/${id}`;
  if (id.startsWith('aud_')) return `/audits/${id}`;
  if (id.startsWith('imp_')) return `/imports/${id}`;
  return `/people/${id}`;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * How a change reads: "name: Desk → Standing desk", an empty side as "none", a timestamp as
 * `formatTime` writes it (the reader's time zone on screen).
 */
export function changeText(
  change: ActivityEntry['changes'][number],
  formatTime: (iso: string) => string = (iso) => iso,
): string {
  const side = (value: string | null) => {
    if (value === null || value === '') return 'none';
    return TIMESTAMP.test(value) ? formatTime(value) : value;
  };
  if (change.from === null) return `${change.field}: ${side(change.to)}`;
  return `${change.field}: ${side(change.from)} → ${side(change.to)}`;
}
