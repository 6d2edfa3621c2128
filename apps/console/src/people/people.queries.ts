// The people domain's server state: its query keys, its reads and its writes.
import type {
  Person,
  PersonChanges,
  PersonInput,
  PersonListQuery,
} from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { createPerson, getPerson, listHoldings, listPeople, updatePerson } from '../api/people.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const personKeys = {
  /** One page of the list: the page, the search and the status filter. */
  list: (query: PersonListQuery) => [QUERY_ROOT.people, 'list', query] as const,
  detail: (id: string) => [QUERY_ROOT.people, 'detail', id] as const,
  /** A page of what the person holds; assets' writes invalidate the people root. */
  holdings: (id: string, page: number, pageSize: number) =>
    [QUERY_ROOT.people, 'detail', id, 'holdings', { page, pageSize }] as const,
};

export const personQueries = {
  list: (query: PersonListQuery) =>
    queryOptions({ queryKey: personKeys.list(query), queryFn: () => listPeople(query) }),
  detail: (id: string) =>
    queryOptions({ queryKey: personKeys.detail(id), queryFn: () => getPerson(id) }),
  holdings: (id: string, page: number, pageSize: number) =>
    queryOptions({
      queryKey: personKeys.holdings(id, page, pageSize),
      queryFn: () => listHoldings(id, page, pageSize),
    }),
};

/**
 * What a write to a person can change: people, the assets they hold (whose holder's name shows
 * on them, and the check-out picker), the activity, and the plan's count of people.
 */
const CHANGED_BY_PERSON_WRITES = [
  QUERY_ROOT.people,
  QUERY_ROOT.assets,
  QUERY_ROOT.activity,
  QUERY_ROOT.usage,
  // An offboarding may release the person's licence seats.
  QUERY_ROOT.licenses,
  // A place counts its people; a new name makes a new place.
  QUERY_ROOT.locations,
] as const;

export type PersonSave = { id: null; input: PersonInput } | { id: string; changes: PersonChanges };

/** Adds a person (`id` null) or changes one: the form, offboarding. */
export function useSavePerson() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: PersonSave): Promise<Person> =>
      save.id === null ? createPerson(save.input) : updatePerson(save.id, save.changes),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_PERSON_WRITES),
  });
}
