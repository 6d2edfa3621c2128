import type { QueryClient } from '@tanstack/react-query';

/**
 * The first element of every query key, one per domain folder, whose `<domain>.queries.ts`
 * builds the rest of its keys and its queries. A write invalidates what it changed in its own
 * domain through that module, and what it changed in another by root alone: assets change what
 * people hold, a person's name shows on assets, every write lands in the activity. So no domain
 * folder imports another's keys to say so, and the folders stay free of cycles.
 */
export const QUERY_ROOT = {
  activity: 'activity',
  assets: 'assets',
  audits: 'audits',
  bookings: 'bookings',
  categories: 'categories',
  calendarFeed: 'calendar-feed',
  deliveries: 'deliveries',
  imports: 'imports',
  keys: 'keys',
  licenses: 'licenses',
  licenseSettings: 'license-settings',
  locations: 'locations',
  maintenance: 'maintenance',
  members: 'members',
  people: 'people',
  reminders: 'reminders',
  requests: 'requests',
  sessions: 'sessions',
  usage: 'usage',
  webhooks: 'webhooks',
} as const;

export type QueryRoot = (typeof QUERY_ROOT)[keyof typeof QUERY_ROOT];

/**
 * Marks every query under these roots stale: those on screen are read again at once, the others
 * when they are next shown. Resolves when the ones on screen have their answers (failed or not),
 * so a mutation returning it stays pending until the screen shows what it changed.
 */
export async function invalidateRoots(
  client: QueryClient,
  roots: readonly QueryRoot[],
): Promise<void> {
  await Promise.all(roots.map((root) => client.invalidateQueries({ queryKey: [root] })));
}
