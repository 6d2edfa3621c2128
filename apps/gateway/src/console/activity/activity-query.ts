import {
  ACTIVITY_PAGE_MAX,
  ACTIVITY_RECORD_TYPES,
  ACTIVITY_SOURCES,
  DomainError,
  type ActivityEntry,
  type ActivityFilter,
  type RawQuery,
} from '@custodian/contracts';

/** The feed's query parameters; any other is refused by name. */
export const ACTIVITY_QUERY = [
  'record_type',
  'record_id',
  'source',
  'actor_id',
  'action',
  'before',
  'limit',
] as const;

export const ACTIVITY_PAGE_DEFAULT = 50;

/** The console's query string as a checked filter; a bad value is a 400 naming the parameter. */
export function activityFilterOf(query: RawQuery): ActivityFilter {
  const unknown = Object.keys(query).filter(
    (name) => !(ACTIVITY_QUERY as readonly string[]).includes(name),
  );
  if (unknown.length > 0) {
    throw invalid(`unknown query parameter ${unknown[0]}; known: ${ACTIVITY_QUERY.join(', ')}`);
  }
  const text = (name: (typeof ACTIVITY_QUERY)[number], max: number): string | undefined => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw invalid(`${name} must be given once`);
    if (value.length > max) throw invalid(`${name} must be at most ${max} characters`);
    return value;
  };
  const oneOf = <T extends string>(
    name: (typeof ACTIVITY_QUERY)[number],
    values: readonly T[],
  ): T | undefined => {
    const value = text(name, 40);
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) {
      throw invalid(`${name} must be one of ${values.join(', ')}`);
    }
    return value as T;
  };
  const filter: ActivityFilter = { limit: limitOf(text('limit', 10)) };
  const recordType = oneOf('record_type', ACTIVITY_RECORD_TYPES);
  if (recordType) filter.record_type = recordType;
  const source = oneOf('source', ACTIVITY_SOURCES);
  if (source) filter.source = source;
  for (const name of ['record_id', 'actor_id'] as const) {
    const value = text(name, 64);
    if (value) filter[name] = value;
  }
  const action = text('action', 40);
  if (action) filter.action = action;
  const before = text('before', 64);
  if (before) {
    if (!before.startsWith('act_')) throw invalid('before must be the id of an activity entry');
    filter.before = before;
  }
  return filter;
}

function limitOf(raw: string | undefined): number {
  if (raw === undefined) return ACTIVITY_PAGE_DEFAULT;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < 1 || limit > ACTIVITY_PAGE_MAX) {
    throw invalid(`limit must be a whole number from 1 to ${ACTIVITY_PAGE_MAX}`);
  }
  return limit;
}

function invalid(message: string): DomainError {
  return new DomainError('invalid_input', message);
}

/**
 * One page out of the apps' pages, each newest first with up to `limit` + 1 entries: the
 * newest `limit` of them all (ids are ULIDs, so their order is time order across apps), and
 * the `before` of the next page when any app has older ones.
 */
export function mergeNewestFirst(
  pages: ActivityEntry[][],
  limit: number,
): { data: ActivityEntry[]; next: string | null } {
  const all = pages.flat().sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const data = all.slice(0, limit);
  const last = data.at(-1);
  return { data, next: all.length > limit && last ? last.id : null };
}
