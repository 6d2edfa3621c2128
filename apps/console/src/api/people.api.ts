import type {
  AssetPage,
  Person,
  PersonChanges,
  PersonInput,
  PersonListQuery,
  PersonPage,
} from '@custodian/console-client';
import { client, send } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listPeople(query: PersonListQuery): Promise<PersonPage> {
  return send(
    'see people',
    client.GET('/console/api/people', { params: { query } }),
    'people.view',
  );
}

export function getPerson(id: string): Promise<Person> {
  return send('see people', client.GET('/console/api/people/{id}', byId(id)), 'people.view');
}

export function createPerson(input: PersonInput): Promise<Person> {
  return send(
    'change people',
    client.POST('/console/api/people', { body: input }),
    'people.manage',
  );
}

export function updatePerson(id: string, changes: PersonChanges): Promise<Person> {
  return send(
    'change people',
    client.PATCH('/console/api/people/{id}', { ...byId(id), body: changes }),
    'people.manage',
  );
}

/**
 * A page of what the person holds now. The assets list, not the person's `holdings`: that one
 * stops at the 50 most recent check-outs, this one pages through all of them.
 */
export function listHoldings(personId: string, page: number, pageSize: number): Promise<AssetPage> {
  return send(
    'see assets',
    client.GET('/console/api/assets', {
      params: { query: { assigned_to_id: personId, page, pageSize } },
    }),
    'assets.view',
  );
}
