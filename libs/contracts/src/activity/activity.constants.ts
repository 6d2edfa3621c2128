/** Where a change came from: the console, an API key, the admin CLI, or the service itself. */
export const ACTIVITY_SOURCES = ['console', 'api', 'cli', 'system'] as const;
export type ActivitySource = (typeof ACTIVITY_SOURCES)[number];

/** Who made it: a member (console), an API key (by name), or the system (CLI, schedulers). */
export const ACTOR_TYPES = ['member', 'key', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** The kinds of record the feed follows, and which app writes their rows. */
export const ACTIVITY_RECORD_TYPES = [
  'asset',
  'person',
  'member',
  'key',
  'endpoint',
  'booking',
  'license',
  'request',
  'maintenance',
  'reminder',
  'location',
  'category',
  'audit',
] as const;
export type ActivityRecordType = (typeof ACTIVITY_RECORD_TYPES)[number];

/** The record types each app owns, so a filtered feed asks only the apps that hold them. */
export const ACTIVITY_OWNERS = {
  register: [
    'asset',
    'person',
    'member',
    'booking',
    'license',
    'request',
    'maintenance',
    'reminder',
    'location',
    'category',
    'audit',
  ],
  gateway: ['key'],
  worker: ['endpoint'],
} as const satisfies Record<string, readonly ActivityRecordType[]>;

/** A page of the feed holds at most this many entries. */
export const ACTIVITY_PAGE_MAX = 100;
